"""Log lines without secrets: a player's or the table's token (/p/<token>, /t/<token>) and a
banker key (`key=...`) are masked in every line the app and both servers write, access log
included, whatever wrote it; and SQL errors never print their parameters (config.py)."""

from __future__ import annotations

import logging
import re

SECRET_IN_PATH = re.compile(r"(/[pt]/)[A-Za-z0-9_-]{6,}")
KEY_IN_QUERY = re.compile(r"(\bkey=)[^&\s\"']+", re.IGNORECASE)
HIDDEN = "***"


def mask(text: str) -> str:
    """The line with tokens and keys replaced by ***."""
    return KEY_IN_QUERY.sub(rf"\g<1>{HIDDEN}", SECRET_IN_PATH.sub(rf"\g<1>{HIDDEN}", text))


class Masking(logging.Filter):
    """Masks a record's message, its traceback and its stack before any handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        if record.stack_info:
            record.stack_info = mask(record.stack_info)
        record.msg, record.args = mask(message), ()
        return True


MASKING = Masking()


def mask_logger(logger: logging.Logger) -> None:
    """Its own records and every record its handlers write (those of child loggers too)."""
    for target in (logger, *logger.handlers):
        if MASKING not in target.filters:
            target.addFilter(MASKING)


def register(app) -> None:
    from flask.logging import default_handler

    for logger in (app.logger, logging.getLogger(), logging.getLogger("werkzeug")):
        mask_logger(logger)
    if MASKING not in default_handler.filters:
        default_handler.addFilter(MASKING)


def access_logger(stream) -> logging.Logger:
    """The `tablebank` command's access log, one masked line per request on `stream`."""
    logger = logging.getLogger("tablebank.access")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if not logger.handlers:
        logger.addHandler(logging.StreamHandler(stream))
    mask_logger(logger)
    return logger
