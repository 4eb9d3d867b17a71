from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors import rule_presets


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules.html", {"presets": rule_presets()})
