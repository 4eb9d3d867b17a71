from django.contrib.auth.hashers import check_password, make_password
from django.db import migrations

# The password every demo organizer had until now, printed by each `make run` and
# written in the README: whoever read either could log in as a superuser.
PUBLISHED_PASSWORD = "demo-organizer"


def retire_the_published_login(apps, schema_editor):
    """A demo organizer still on the published password keeps its account and
    championships but loses the password and the admin: `manage.py changepassword demo`
    sets a new one, `createsuperuser` makes an admin. One whose password was changed is
    someone's own account now, and left as it is."""
    User = apps.get_model("accounts", "User")
    demo = User.objects.filter(username="demo").first()
    if demo is None or not check_password(PUBLISHED_PASSWORD, demo.password):
        return
    demo.password = make_password(None)  # unusable, as set_unusable_password makes it
    demo.is_staff = False
    demo.is_superuser = False
    demo.save(update_fields=["password", "is_staff", "is_superuser"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_user_is_bot"),
    ]

    operations = [
        # Nothing to undo: the published password is not given back.
        migrations.RunPython(retire_the_published_login, migrations.RunPython.noop),
    ]
