from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User

ATU_FIELDS = ("display_name", "can_organize")


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (*(DjangoUserAdmin.fieldsets or ()), (_("Atu"), {"fields": ATU_FIELDS}))
    add_fieldsets = (*DjangoUserAdmin.add_fieldsets, (_("Atu"), {"fields": ATU_FIELDS}))
    list_display = (*DjangoUserAdmin.list_display, *ATU_FIELDS)
    list_filter = (*DjangoUserAdmin.list_filter, "can_organize")
    search_fields = (*DjangoUserAdmin.search_fields, "display_name")
