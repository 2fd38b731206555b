"""Errors the service raises to its callers (pages, CLI, tasks)."""
from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses; ``str(err)`` is for the user."""


class GameNotFound(ServiceError):
    pass


class NotAllowed(ServiceError):
    """The caller may not do this (not the host, not this seat's player)."""


class WrongStatus(ServiceError):
    """The game is not in a status that allows this (e.g. paused)."""
