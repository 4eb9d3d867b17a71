from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

# Imported here, whatever the order of INSTALLED_APPS, so that the tokens' admin it
# registers (which lists every user's API token key) is there to unregister.
from rest_framework.authtoken import admin as token_admin

from accounts.models import User

ATU_FIELDS = ("display_name", "can_organize", "is_bot", "is_guest")

# A token is a password that never expires: whoever reads one acts as its user, so no
# page shows them. A user gets theirs by logging in; revoking it is logging out.
admin.site.unregister(token_admin.TokenProxy)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (*(DjangoUserAdmin.fieldsets or ()), (_("Atu"), {"fields": ATU_FIELDS}))
    add_fieldsets = (*DjangoUserAdmin.add_fieldsets, (_("Atu"), {"fields": ATU_FIELDS}))
    list_display = (*DjangoUserAdmin.list_display, *ATU_FIELDS)
    list_filter = (*DjangoUserAdmin.list_filter, "can_organize", "is_bot", "is_guest")
    search_fields = (*DjangoUserAdmin.search_fields, "display_name")
