import pytest
from django.apps import apps
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader
from django.db.models import Model
from django.utils import translation


@pytest.mark.django_db
def test_models_have_no_changes_missing_from_migrations() -> None:
    # Exits with status 1 when a model change has no migration.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_custom_user_is_created_by_the_first_accounts_migration() -> None:
    loader = MigrationLoader(None)

    assert loader.graph.root_nodes("accounts") == [("accounts", "0001_initial")]


@pytest.mark.parametrize("model", apps.get_models(), ids=lambda model: model._meta.label)
def test_every_model_names_its_plural_in_english_and_romanian(model: type[Model]) -> None:
    # Django's guess adds an "s" ("entrys") and is never translated.
    assert "verbose_name_plural" in model._meta.original_attrs
    with translation.override("en"):
        english = str(model._meta.verbose_name_plural)
    with translation.override("ro"):
        romanian = str(model._meta.verbose_name_plural)
    assert romanian != english, f"{model._meta.label}: {english!r} is not translated"
