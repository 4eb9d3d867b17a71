from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

# Imported here, whatever the order of INSTALLED_APPS, so that the tokens' admin it
# registers (which lists every user's API token key) is there to unregister.
from rest_framework.authtoken import admin as _token_admin  # noqa: F401
from rest_framework.authtoken.models import TokenProxy

from accounts.models import User

ATU_FIELDS = ("display_name", "can_organize", "is_bot", "is_guest")

# A token is a password that never expires: whoever reads one acts as its user, so no
# page shows them. A user gets theirs by logging in; revoking it is logging out.
admin.site.unregister(TokenProxy)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (*(DjangoUserAdmin.fieldsets or ()), (_("Atu"), {"fields": ATU_FIELDS}))
    add_fieldsets = (*DjangoUserAdmin.add_fieldsets, (_("Atu"), {"fields": ATU_FIELDS}))
    # Django's list_display is a class attribute; django-stubs cannot declare it one (a
    # ClassVar may not hold the model's type variable), so reading it here is "ambiguous".
    list_display = (*DjangoUserAdmin.list_display, *ATU_FIELDS)  # type: ignore[misc]
    list_filter = (*DjangoUserAdmin.list_filter, "can_organize", "is_bot", "is_guest")
    search_fields = (*DjangoUserAdmin.search_fields, "display_name")
