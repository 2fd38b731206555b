"""pbem: a play-by-email service for long board games."""
__version__ = "0.1.0"
