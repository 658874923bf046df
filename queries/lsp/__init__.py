"""``provlog lsp``: a language server for ``.facts`` worlds (docs/editors.md).

session.py holds the world (the live loader over the editor's buffers, facts/live.py; the World
that answers, from the CLI's store when the buffers are saved); navigate.py finds ids, their
declarations and references, and renames; answers.py writes hovers, inlay hints and code lenses;
features.py completes; server.py speaks the protocol (pygls, over stdio). Only server.py imports
pygls and lsprotocol: the rest answers in plain Python values, and is tested without a client.
"""
