"""The language server: pygls over stdio, each LSP request answered by session.py, navigate.py,
answers.py and features.py. ``provlog lsp`` (queries/cli/lsp.py) runs :func:`serve`.

The world is the ``world`` of the client's initialization options, else the workspace folder.
Columns are characters, as in every provlog diagnostic (the same as the protocol's UTF-16 units
for any text without characters beyond the Basic Multilingual Plane). No request writes a file:
a rename answers with the edits, the client applies them.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ...facts import DIMS
from ...grammar.parser import tokens
from ...version import __version__
from . import answers
from .features import complete_at
from .navigate import Index, Occurrence
from .session import Session

WHY = "provlog.why"


class ProvlogServer(LanguageServer):
    def __init__(self):
        super().__init__("provlog", __version__)
        self.session: Optional[Session] = None
        self.published: set = set()
        self._index: Optional[Index] = None
        self._index_of = -1

    def start(self, root: Optional[str]) -> None:
        world = root or os.getcwd()
        self.session = Session(world)

    @property
    def index(self) -> Index:
        snap = self.session.snapshot
        if self._index is None or self._index_of != snap.version:
            self._index, self._index_of = Index(snap), snap.version
        return self._index

    def publish(self) -> None:
        """Every file's diagnostics (an edit in one file can break a reference in another)."""
        now = set()
        for path, diags in self.session.diagnostics().items():
            uri = from_fs_path(str(path))
            now.add(uri)
            lines = _lines(self.session, path)
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[_diag(d, lines) for d in diags]))
        for uri in self.published - now:
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self.published = now


server = ProvlogServer()


def _lines(session: Session, path: Path) -> List[str]:
    return session.snapshot.lines(session.name_of(path))


def _word_end(line: str, col: int) -> int:
    end = col
    while end < len(line) and line[end] not in " \t\f":
        end += 1
    return max(end, col + 1)


def _diag(d, lines: List[str]) -> T.Diagnostic:
    line = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
    start = T.Position(d.line - 1, d.col - 1)
    end = T.Position(d.line - 1, _word_end(line, d.col - 1))
    severity = (T.DiagnosticSeverity.Error if d.code.startswith("E") else
                T.DiagnosticSeverity.Information if d.code == "W140" else T.DiagnosticSeverity.Warning)
    return T.Diagnostic(T.Range(start, end), d.message, severity=severity, code=d.code, source="provlog")


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri).resolve()


def _name(uri: str) -> str:
    return server.session.name_of(_path(uri))


def _range(o: Occurrence) -> T.Range:
    return T.Range(T.Position(o.line - 1, o.col - 1), T.Position(o.line - 1, o.end - 1))


def _location(o: Occurrence) -> T.Location:
    return T.Location(from_fs_path(str(server.session.path_of(o.name))), _range(o))


def _at(params) -> Optional[Occurrence]:
    p = params.position
    return server.index.at(_name(params.text_document.uri), p.line + 1, p.character + 1)


# -- lifecycle and buffers --------------------------------------------------------------------------
@server.feature(T.INITIALIZED)
def initialized(ls: ProvlogServer, params: T.InitializedParams) -> None:
    opts = getattr(ls.protocol, "_provlog_options", None) or {}
    ls.start(opts.get("world") or ls.workspace.root_path)
    ls.publish()


@server.feature(T.INITIALIZE)
def initialize(ls: ProvlogServer, params: T.InitializeParams) -> None:
    ls.protocol._provlog_options = params.initialization_options if isinstance(params.initialization_options, dict) else {}


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ProvlogServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.session.open(_path(params.text_document.uri), params.text_document.text)
    ls.publish()


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ProvlogServer, params: T.DidChangeTextDocumentParams) -> None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    ls.session.change(_path(params.text_document.uri), doc.source)
    ls.publish()


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: ProvlogServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.session.saved(_path(params.text_document.uri))
    ls.publish()


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ProvlogServer, params: T.DidCloseTextDocumentParams) -> None:
    ls.session.close(_path(params.text_document.uri))
    ls.publish()


@server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def watched(ls: ProvlogServer, params: T.DidChangeWatchedFilesParams) -> None:
    ls.session.saved(None)
    ls.publish()


# -- answers ----------------------------------------------------------------------------------------
@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: ProvlogServer, params: T.HoverParams) -> Optional[T.Hover]:
    text = _hover_text(ls, params)
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text)) if text else None


def _hover_text(ls: ProvlogServer, params) -> Optional[str]:
    clause = _clause_at(ls, params)
    if clause is not None:
        return answers.clause_hover(clause)
    o = _at(params)
    if o is None:
        return None
    w = ls.session.world()
    if w is None:
        d = ls.index.definition(o)
        at = f"declared at {d.name}:{d.line}" if d else "not declared"
        return f"**{o.ident}** ({at}); the world has errors: its answers wait until they are fixed"
    if o.ns == "node" and o.ident in w.facts.nodes:
        return answers.node_hover(w, o.ident)
    if o.ns == "signal" and o.ident in w.facts.signals:
        return answers.signal_hover(w, o.ident)
    if o.ns == "source" and o.ident in w.facts.sources:
        return answers.source_hover(w, o.ident)
    return f"**{o.ns} {o.ident}**"


def _clause_at(ls: ProvlogServer, params) -> Optional[str]:
    """The clause id under the cursor in ``rule=G.2`` (a signal's, a resolution's)."""
    line = _doc_line(ls, params.text_document.uri, params.position.line)
    last = None
    for kind, start, tok in tokens(line):
        if kind == "WORD" and last == "rule=" and start <= params.position.character <= start + len(tok):
            return tok
        if kind != "WS":
            last = tok
    return None


def _doc_line(ls: ProvlogServer, uri: str, n: int) -> str:
    lines = ls.workspace.get_text_document(uri).lines
    return lines[n].rstrip("\r\n") if 0 <= n < len(lines) else ""


@server.feature(T.TEXT_DOCUMENT_INLAY_HINT)
def inlay_hint(ls: ProvlogServer, params: T.InlayHintParams) -> List[T.InlayHint]:
    w = ls.session.world()
    if w is None:
        return []
    name = _name(params.text_document.uri)
    lines = ls.session.snapshot.lines(name)
    lo, hi = params.range.start.line + 1, params.range.end.line + 1
    out = []
    for f in ls.session.snapshot.statements():
        if f.kind == "signal" and f.loc.file == name and lo <= f.loc.line <= hi and f["id"] in w.facts.signals:
            end = len(lines[f.loc.line - 1]) if f.loc.line <= len(lines) else 0
            out.append(T.InlayHint(position=T.Position(f.loc.line - 1, end),
                                   label=answers.signal_hint(w, w.facts.signals[f["id"]]), padding_left=True))
    return out


@server.feature(T.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: ProvlogServer, params: T.CodeLensParams) -> List[T.CodeLens]:
    if ls.session.world() is None:
        return []
    name = _name(params.text_document.uri)
    out = []
    for f in ls.session.snapshot.statements():
        if f.loc.file != name or f.kind not in ("org", "signal"):
            continue
        org, dims = (f["id"], DIMS) if f.kind == "org" else (f["org"], f["dim"])
        title = f"why {org}" if f.kind == "org" else f"why {org} {dims}"
        where = T.Range(T.Position(f.loc.line - 1, 0), T.Position(f.loc.line - 1, 0))
        out.append(T.CodeLens(range=where, command=T.Command(title=title, command=WHY, arguments=[org, dims])))
    return out


@server.command(WHY)
def why(ls: ProvlogServer, *args) -> str:
    """The proof text (``provlog why``) of an org's values: ``[org, dims]``; the client shows it."""
    w = ls.session.world()
    if w is None:
        return "the world has errors: fix them for a proof"
    org, dims = (list(args) + [DIMS])[:2]
    return answers.why(w, org, dims)


# -- navigation -------------------------------------------------------------------------------------
@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: ProvlogServer, params: T.DefinitionParams) -> Optional[T.Location]:
    o = _at(params)
    d = ls.index.definition(o) if o else None
    return _location(d) if d else None


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def references(ls: ProvlogServer, params: T.ReferenceParams) -> List[T.Location]:
    o = _at(params)
    return [_location(x) for x in ls.index.references(o, params.context.include_declaration)] if o else []


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: ProvlogServer, params: T.DocumentSymbolParams) -> List[T.DocumentSymbol]:
    return [T.DocumentSymbol(name=o.ident, kind=_KINDS.get(kind, T.SymbolKind.Object), range=_range(o),
                             selection_range=_range(o), detail=kind)
            for o, kind in ls.index.symbols(_name(params.text_document.uri))]


@server.feature(T.WORKSPACE_SYMBOL)
def workspace_symbols(ls: ProvlogServer, params: T.WorkspaceSymbolParams) -> List[T.SymbolInformation]:
    return [T.SymbolInformation(name=o.ident, kind=_KINDS.get(kind, T.SymbolKind.Object), location=_location(o),
                                container_name=kind)
            for o, kind in ls.index.symbols(None, params.query)]


_KINDS = {"org": T.SymbolKind.Class, "lab": T.SymbolKind.Module, "entity": T.SymbolKind.Struct,
          "person": T.SymbolKind.Constant, "source": T.SymbolKind.File, "signal": T.SymbolKind.Event,
          "preset": T.SymbolKind.Variable}


@server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: ProvlogServer, params: T.PrepareRenameParams) -> Optional[T.Range]:
    o = _at(params)
    return _range(o) if o else None


@server.feature(T.TEXT_DOCUMENT_RENAME)
def rename(ls: ProvlogServer, params: T.RenameParams) -> Optional[T.WorkspaceEdit]:
    o = _at(params)
    if o is None:
        return None
    edits = ls.index.rename(o, params.new_name)  # ValueError: pygls answers with the error's message
    return T.WorkspaceEdit(changes={
        from_fs_path(str(ls.session.path_of(name))): [
            T.TextEdit(T.Range(T.Position(line - 1, col - 1), T.Position(line - 1, end - 1)), params.new_name)
            for line, col, end in spots]
        for name, spots in edits.items()})


# -- completion -------------------------------------------------------------------------------------
@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["=", " ", ","]))
def completion(ls: ProvlogServer, params: T.CompletionParams) -> T.CompletionList:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    lines = [ln.rstrip("\r\n") for ln in doc.lines]
    n = params.position.line
    prefix = lines[n][:params.position.character] if n < len(lines) else ""
    items = complete_at(prefix, lines[:n], ls.index.ids)
    return T.CompletionList(is_incomplete=False, items=[T.CompletionItem(label=label, detail=detail)
                                                     for label, detail in items])


def serve() -> None:
    """Answer an editor over stdin and stdout until it says exit."""
    server.start_io()
