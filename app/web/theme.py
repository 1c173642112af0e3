"""Light or dark pages: the system's choice by default (prefers-color-scheme, static/app.css),
or the reader's, from the switch at the foot of every page (`?theme=`, kept in the session)."""

from __future__ import annotations

from flask import Flask, request, session

THEMES = ("auto", "light", "dark")


def register(app: Flask) -> None:
    @app.before_request
    def choose_theme() -> None:
        chosen = request.args.get("theme")
        if chosen in THEMES:
            session["theme"] = chosen

    @app.context_processor
    def theme() -> dict:
        return {"theme": session.get("theme", "auto")}
