"""Celery tasks of the championships: they take ids, are idempotent, and only derive
(the standings and leaderboards, from the logs)."""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.utils import timezone

from runtime.lifespan import off_the_thread
from runtime.tasks import RETRY_ON_DATABASE_ERRORS as RETRY
from runtime.tasks import VISIBILITY_TIMEOUT
from tournaments.championship import AT_TIME_FINISH_DEAL
from tournaments.errors import EventNotFound
from tournaments.models import Event
from tournaments.projections import players, seasons, standings
from tournaments.services import (
    event_advance,
    event_begin,
    event_call_time,
    event_finish,
    event_follow_demo,
    publish_event,
)

# How long the key of a standings update on its way outlives its sending.
BUSY_SECONDS = 10
# A round's clock waits in steps shorter than this with a broker (as an automatic move
# does): a message held longer than the visibility timeout would be handed out again.
MAX_CLOCK_COUNTDOWN = VISIBILITY_TIMEOUT / 2

logger = logging.getLogger(__name__)


def _busy_key(event_id: uuid.UUID | str) -> str:
    return f"atu:standings-busy:{event_id}"


def _due_key(event_id: uuid.UUID | str) -> str:
    return f"atu:standings-due:{event_id}"


def schedule_standings(event_id: uuid.UUID) -> None:
    """Ask for the event's standings to be brought up to date. A hand scored while no
    update is on its way asks for one at once (a leaderboard in the room moves as the
    deal is written down); hands scored while one is on its way make one more, however
    many they are, ``ATU_STANDINGS_SPACING_SECONDS`` after it. Call it after the commit
    of what changed."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        update_standings(str(event_id))
        return
    off_the_thread(_ask_for_standings, event_id)


def _ask_for_standings(event_id: uuid.UUID) -> None:
    try:
        if not _claim(event_id):
            cache.set(_due_key(event_id), True, timeout=BUSY_SECONDS)
            # The update on its way may have finished between the claim and the mark,
            # without seeing the mark: then the mark's hand asks for its own.
            _claim(event_id)
    except Exception as error:
        # Redis, the cache and the broker, does not answer: this process brings the
        # standings up to date itself, after the spacing, so the leaderboard does not
        # wait for beat's check once Redis is back (decision 3101).
        logger.warning(
            "the standings of event %s could not be asked for (%s: %s); updated here",
            event_id,
            type(error).__name__,
            error,
        )
        timer = threading.Timer(_spacing(), _update_here, (str(event_id),))
        timer.daemon = True
        timer.start()


def _claim(event_id: uuid.UUID | str, countdown: float = 0.0) -> bool:
    """Send an update if none is on its way (the busy key marks one). The key outlives
    a slow update only by so much: a worker killed in one leaves a key with nothing on
    its way, and the hands scored meanwhile wait for it to go or for beat's check; a
    second update sent while one is slow is only made twice."""
    if not cache.add(_busy_key(event_id), True, timeout=BUSY_SECONDS):
        return False
    update_standings.apply_async((str(event_id),), countdown=countdown, retry=False)
    return True


def _spacing() -> float:
    return float(settings.ATU_STANDINGS_SPACING_SECONDS)


def _update_here(event_id: str) -> None:
    try:
        bring_standings_up_to_date(event_id)
    except Exception:
        logger.exception("the standings of event %s could not be updated here", event_id)
    finally:
        # A timer thread's connection would never go back to the pool.
        connections.close_all()


@shared_task(ignore_result=True, **RETRY)
def update_standings(event_id: str) -> bool:
    """Re-read the event's tables that moved on and rewrite its standings; publish if
    they changed; finish the event if its last table has. Run twice or late, it finds
    nothing more to do."""
    # Cleared before reading, so a hand scored while this runs marks it due again.
    cache.delete(_due_key(event_id))
    try:
        return bring_standings_up_to_date(event_id)
    finally:
        _pass_on(event_id)


def _pass_on(event_id: str) -> None:
    """After an update: the next, spaced, if hands were scored while it ran; else the
    way is free for the next hand's own."""
    if cache.get(_due_key(event_id)):
        cache.set(_busy_key(event_id), True, timeout=BUSY_SECONDS)
        update_standings.apply_async((event_id,), countdown=_spacing(), retry=False)
        return
    cache.delete(_busy_key(event_id))
    # A hand marked due between the look and the delete, whose own claim came before
    # the delete, would wait for the next hand: it is sent here.
    if cache.get(_due_key(event_id)):
        _claim(event_id, countdown=_spacing())


def bring_standings_up_to_date(event_id: str) -> bool:
    """:func:`update_standings`' work, without its key: whether the standings changed."""
    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        return False  # Gone (a task outliving a test database).
    changed = standings.update_event_standings(event.id)
    # Each hand scored checks the round's clock too: what makes up, embedded, for a
    # timer thread lost to a restart (beat does it with a broker).
    ends_at = event.round_ends_at
    if event.at_time == AT_TIME_FINISH_DEAL and ends_at is not None and timezone.now() >= ends_at:
        event_call_time(event_id=event.id, round_number=event.rounds_started)
    # The standings only derive; whether the event is over is the event's own decision,
    # asked only in its last round (it locks the event and reads its stream).
    if event.status == Event.Status.RUNNING and event.rounds_started == event.rounds_total:
        event_finish(event_id=event.id)
    if changed:
        publish_event(event.id, event.version)
    if event.season_id is not None and changed:
        update_season.delay(str(event.season_id))
    return changed


@shared_task(ignore_result=True, **RETRY)
def update_season(season_id: str) -> None:
    seasons.update_season(uuid.UUID(season_id))


@shared_task(ignore_result=True, **RETRY)
def record_player_games(game_id: str) -> int:
    """A finished game's part in its players' pages (their ``PlayerGame`` rows), from
    its log; how many rows. Run twice or late, it writes the same rows."""
    return players.update_player_games(uuid.UUID(game_id))


@shared_task(ignore_result=True, **RETRY)
def check_standings() -> int:
    """Celery beat's periodic check: every event in play is brought up to date (and
    advanced, if it advances by itself), in case an update was lost (a worker
    restarted). Returns how many were checked."""
    running = list(Event.objects.filter(status=Event.Status.RUNNING).values_list("id", flat=True))
    for event_id in running:
        update_standings.delay(str(event_id))
        advance_event.delay(str(event_id))
    for event_id, number in rounds_past_time(timezone.now()):
        call_round_time.delay(str(event_id), number)
    return len(running)


def rounds_past_time(now: datetime) -> list[tuple[uuid.UUID, int]]:
    """The events (and their rounds in play) whose round's time was up at ``now`` and
    stops its tables: what beat's check has the clock's task apply, in case its timer
    was lost."""
    return list(
        Event.objects.filter(
            status=Event.Status.RUNNING, at_time=AT_TIME_FINISH_DEAL, round_ends_at__lte=now
        ).values_list("id", "rounds_started")
    )


def schedule_round_clock(event_id: str, round_number: int, seconds: float) -> None:
    """Have :func:`call_round_time` run for the round in ``seconds``: from a timer
    thread of this process, embedded (or when the broker does not take it); with a
    broker, a message that runs then or on its way there. Counted in seconds from
    the site's time, not as a time.time(): the deadline is the site's."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _clock_here(event_id, round_number, seconds)
        return
    off_the_thread(_send_clock, event_id, round_number, seconds)


def _send_clock(event_id: str, round_number: int, seconds: float) -> None:
    try:
        call_round_time.apply_async(
            (event_id, round_number),
            countdown=min(max(0.0, seconds), MAX_CLOCK_COUNTDOWN),
            retry=False,
        )
    except Exception as error:
        logger.warning(
            "the clock of event %s could not be sent (%s: %s); kept here",
            event_id,
            type(error).__name__,
            error,
        )
        _clock_here(event_id, round_number, seconds)


def _clock_here(event_id: str, round_number: int, seconds: float) -> None:
    timer = threading.Timer(max(0.0, seconds), _call_time_here, (event_id, round_number))
    timer.daemon = True
    timer.start()


def _call_time_here(event_id: str, round_number: int) -> None:
    try:
        call_round_time(event_id, round_number)
    except Exception:
        logger.exception("the clock of event %s could not be applied here", event_id)
    finally:
        # A timer thread's connection would never go back to the pool.
        connections.close_all()


@shared_task(ignore_result=True, **RETRY)
def call_round_time(event_id: str, round_number: int) -> bool | None:
    """Apply the event's rule at round ``round_number``'s time limit
    (services.event_call_time): True if this run recorded it, False if there was
    nothing to do (another round, no limit or rule, or done already); None if the
    event is gone or its time not yet up (the clock is scheduled again for then). A
    task set for a deadline the director has since extended finds the new one here
    and waits for it (decision 3407)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    ends_at = event.round_ends_at
    if event.rounds_started != round_number or ends_at is None:
        return False
    left = (ends_at - timezone.now()).total_seconds()
    if left > 0:
        schedule_round_clock(event_id, round_number, left)
        return None
    return event_call_time(event_id=event.id, round_number=round_number)


@shared_task(ignore_result=True, **RETRY)
def advance_event(event_id: str) -> int | None:
    """Start an auto-advancing event's next round once its last is over; the round
    started, or None. Idempotent: the round is started at the version read."""
    try:
        result = event_advance(event_id=uuid.UUID(event_id))
    except EventNotFound:
        return None
    return None if result is None else Event.objects.get(pk=event_id).rounds_started


@shared_task(ignore_result=True, **RETRY)
def begin_due_events() -> int:
    """The schedule's clock, every ``ATU_CLOCK_SECONDS`` (Celery beat; embedded, the
    server process's :func:`tournaments.clock.keep_time`): every event whose start has
    come and whose round 1 has not started is begun. Returns how many were asked."""
    due = list(
        Event.objects.filter(
            status=Event.Status.REGISTRATION, starts_at__lte=timezone.now()
        ).values_list("id", flat=True)
    )
    for event_id in due:
        begin_event.delay(str(event_id))
    return len(due)


@shared_task(ignore_result=True, **RETRY)
def begin_event(event_id: str) -> int:
    """A scheduled event's start (services.event_begin): check-in closed, the no-shows
    dealt with, round 1 started. Run twice or late, the second finds it done. Returns
    the event's version after it."""
    try:
        result = event_begin(event_id=uuid.UUID(event_id))
    except EventNotFound:
        return 0
    return Event.objects.get(pk=event_id).version if result is None else result.version


@shared_task(ignore_result=True, **RETRY)
def follow_demo_event(event_id: str) -> str | None:
    """After an event finished: the next demo championship, if it was one (see
    services.event_follow_demo); run twice, the second finds the first's. Returns the
    id of the demo championship running, or None."""
    followed = event_follow_demo(event_id=uuid.UUID(event_id))
    return None if followed is None else str(followed[0].id)
