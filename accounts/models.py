from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# What a deleted account is shown as: no name, no alias (decision 3503).
DELETED_PLAYER = _("Deleted player")


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=64, blank=True)
    can_organize = models.BooleanField(
        _("can organize"),
        default=False,
        help_text=_("Whether the user may create and run championships."),
    )
    is_bot = models.BooleanField(
        _("bot"),
        default=False,
        help_text=_("A bot plays this account's seats; nobody logs in as it."),
    )
    is_guest = models.BooleanField(
        _("guest"),
        default=False,
        help_text=_(
            "Made for a visitor who played without an account, and tied to their browser "
            "until they register."
        ),
    )

    deleted_at = models.DateTimeField(
        _("deleted at"),
        null=True,
        blank=True,
        help_text=_(
            "When the player deleted the account: every personal datum was erased, and "
            "the row is kept only as the id their games and standings name."
        ),
    )

    def __str__(self) -> str:
        return self.display

    @property
    def may_organize(self) -> bool:
        """Whether the user may create and run championships: never a guest."""
        return not self.is_guest and (self.can_organize or self.is_superuser)

    @property
    def display(self) -> str:
        """The name shown to other players."""
        if self.deleted_at is not None:
            return str(DELETED_PLAYER)
        return self.display_name or self.username


class GuestAbsorbed(models.Model):
    """A guest who signed in to an account they already had: the account is the same
    person, and the guest's games are the account's (decision 3507). The games in play
    change hands in their logs; the finished ones, whose logs take no more events, are
    read as the account's through this row by the read models of persons (My games, the
    player page's rows), and a rebuild reads it as the live path does."""

    guest = models.OneToOneField(
        User, primary_key=True, on_delete=models.PROTECT, related_name="absorbed_into"
    )
    account = models.ForeignKey(User, on_delete=models.PROTECT, related_name="absorbed_guests")
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("guest absorbed")
        verbose_name_plural = _("guests absorbed")

    def __str__(self) -> str:
        return f"guest {self.guest_id} is account {self.account_id}"
