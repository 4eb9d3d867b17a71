import pytest
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader


@pytest.mark.django_db
def test_models_have_no_changes_missing_from_migrations() -> None:
    # Exits with status 1 when a model change has no migration.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_custom_user_is_created_by_the_first_accounts_migration() -> None:
    loader = MigrationLoader(None)

    assert loader.graph.root_nodes("accounts") == [("accounts", "0001_initial")]
