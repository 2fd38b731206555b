"""The shapes of the public API's requests and answers (pydantic models;
spectree makes the OpenAPI document from them and checks requests and
answers against them). Times are ISO 8601 in UTC; seats are numbered as
players count them (1 is the first); texts are in the token owner's
language unless said otherwise. docs/api.md."""
from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field

#: one Idempotency-Key: printable ASCII without spaces
KEY_PATTERN = r"^[!-~]{1,200}$"
#: order text: no control characters but tab, CR and LF (as the pages' order field, pbem.web.inputs)
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$"


class Problem(BaseModel):
    """An error (RFC 9457): ``type`` is stable per kind of error."""

    model_config = ConfigDict(extra="allow")
    type: str
    title: str
    status: int
    detail: str


class TokenInfo(BaseModel):
    id: int
    name: str
    scope: str = Field(description="read, or order (read and send orders)")
    game: Optional[int] = Field(None, description="the one game the token reaches, if limited")
    expires_at: dt.datetime


class Me(BaseModel):
    player: int
    name: str
    language: str = Field(description="the language of every text the API writes for this player")
    timezone: str
    token: TokenInfo


class SeatInfo(BaseModel):
    number: int
    name: str
    joined: bool
    to_move: bool


class GameSummary(BaseModel):
    id: int
    kind: str
    title: str
    status: str = Field(description="invited, active, paused, finished or cancelled")
    step: int
    phase: str
    my_seats: list[int]
    to_move: list[int] = Field(description="the seats that owe a decision now")
    my_move: bool = Field(description="one of my seats owes a decision now")
    deadline: Optional[dt.datetime]


class GameList(BaseModel):
    games: list[GameSummary]


class Score(BaseModel):
    seat: int
    points: int
    tiebreak: int
    rank: int = Field(description="1 for the winner(s)")


class PublicGame(GameSummary):
    seats: list[SeatInfo]
    view: Optional[dict[str, Any]] = Field(None, description="what every player and onlooker sees")
    scores: list[Score] = Field(default_factory=list)


class SeatView(BaseModel):
    game: int
    seat: int
    status: str
    step: int
    phase: str
    to_move: bool
    deadline: Optional[dt.datetime]
    view: Optional[dict[str, Any]] = Field(None, description="this seat's view: the public state and its own "
                                                             "hidden information only")
    decision: Optional[dict[str, Any]] = Field(None, description="what the seat owes now, if anything")
    pending: Optional[str] = Field(None, description="this seat's orders stored for this turn")
    held: list[str] = Field(default_factory=list, description="lines kept for later decisions")


class LegalOrder(BaseModel):
    text: str = Field(description="the whole order in the command language, in my language")
    label: str = Field(description="the order without its site, in my language")
    site: Optional[str] = Field(None, description="the board site it targets")
    steps: Optional[list[list[str]]] = None
    mark: Optional[str] = None


class LegalOrders(BaseModel):
    game: int
    seat: int
    step: int
    to_move: bool
    preview: bool = Field(description="false for a game whose dry runs would show hidden cards or draws: "
                                      "then only the first decision's orders are listed")
    orders: list[LegalOrder]


class LegalQuery(BaseModel):
    orders: str = Field("", max_length=10_000, pattern=TEXT_PATTERN, description="order lines already chosen this turn, one a line; "
                                                           "the answer lists the next decision's orders")


class OrdersIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    orders: str = Field(min_length=1, max_length=10_000, pattern=TEXT_PATTERN, description="one order a line, in any of the "
                                                                      "command languages")
    step: Optional[int] = Field(None, ge=0, le=2 ** 31 - 1, description="the step the orders were written "
                                                                        "on (stale ones are refused)")


class KeyHeaders(BaseModel):
    idempotency_key: Optional[str] = Field(None, alias="Idempotency-Key", pattern=KEY_PATTERN,
                                           description="send the same key again to retry safely")


class Line(BaseModel):
    text: str
    order: Optional[str] = Field(None, description="the line as read, in the command language")
    error: Optional[str] = Field(None, description="why it was refused")
    checked: bool = True
    held: bool = False


class OrdersOut(BaseModel):
    status: str = Field(description="stored: accepted")
    message: str
    applied: list[str]
    held: list[str]
    lines: list[Line]
    resolved: bool
    step: int
    goes_on: bool = Field(description="the turn resolved and this seat still owes a decision")
    owes: Optional[str] = None


class DryRunOut(BaseModel):
    status: str = Field(description="ok: every line is legal now")
    message: str
    lines: list[Line]
    more: bool = Field(description="the seat owes another decision of this turn after these lines")
    orders: list[LegalOrder] = Field(description="the legal orders of that next decision")
    view: Optional[dict[str, Any]] = Field(None, description="this seat's view with the lines applied")


class EventQuery(BaseModel):
    since: int = Field(0, ge=0, le=2 ** 31 - 1, description="only events after this step")


class Event(BaseModel):
    id: int
    step: int
    kind: str
    text: str
    private: bool = Field(description="seen by this seat only")


class EventList(BaseModel):
    game: int
    seat: int
    since: int
    step: int = Field(description="the game's step now: ask for events since it next time")
    events: list[Event] = Field(description="oldest first")


class WebhookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(min_length=9, max_length=2000, pattern=r"^https://[!-~]+$",
                     description="an https:// address of a public server")


class Webhook(BaseModel):
    id: int
    url: str
    events: list[str] = Field(description="your_move, turn_resolved, game_over")
    created_at: dt.datetime
    failures: int = Field(description="calls failed in a row")
    disabled_at: Optional[dt.datetime] = Field(None, description="disabled after too many failed calls")
    last_error: str


class NewWebhook(Webhook):
    secret: str = Field(description="signs every call (Pbem-Signature); shown only now")


class WebhookList(BaseModel):
    webhooks: list[Webhook]


class TalkQuery(BaseModel):
    after: int = Field(0, ge=0, le=2 ** 31 - 1, description="only messages with a higher id")


class TalkMessageOut(BaseModel):
    id: int
    seat: int = Field(description="the author's seat")
    to_all: bool
    to: list[int] = Field(description="the recipient seats of a message not to all")
    body: str = Field(description="empty when the host hid the message")
    hidden: bool
    created_at: dt.datetime
    mine: bool


class TalkList(BaseModel):
    game: int
    seat: int
    messages: list[TalkMessageOut] = Field(description="oldest first")


class Away(BaseModel):
    seat: int
    until: dt.datetime


class AwayList(BaseModel):
    game: int
    away: list[Away]


class Absence(BaseModel):
    id: int
    start: dt.datetime
    end: dt.datetime
    game: Optional[int] = Field(None, description="the one game it moves deadlines in (none: every game)")


class AbsenceList(BaseModel):
    absences: list[Absence]
