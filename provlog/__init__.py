"""provlog: Datalog provenance reasoning over the independence RULES.

    >>> from provlog import World                               # doctest: +SKIP
    >>> w = World.load("facts/worlds/example")                  # doctest: +SKIP
    >>> w.value("harbor-eval", "F").value                       # doctest: +SKIP
"""
__version__ = "0.1.0"


def __getattr__(name):  # lazy, so that `import provlog.grammar` stays light
    if name in ("World", "LoadError", "Value", "Card", "Clamp"):
        from .queries import api

        return getattr(api, name)
    raise AttributeError(name)
