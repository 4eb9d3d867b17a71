import factory

from accounts.models import User

DEFAULT_PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    password = factory.django.Password(DEFAULT_PASSWORD)
