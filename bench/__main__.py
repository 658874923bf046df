"""python -m bench {generate,run,table,check,cites,bods,web,store,first,diff,edits,site,whatif,history,lsp} ... (see bench/README.md)."""
import importlib
import sys

#: command -> (module, function)
COMMANDS = {
    "generate": (".generate", "main"),
    "run": (".run", "main"),
    "table": (".run", "table_main"),
    "check": (".clingo_check", "main"),
    "cites": (".cites", "main"),
    "bods": (".bods", "main"),
    "web": (".web", "main"),
    "store": (".store", "main"),
    "first": (".first", "main"),
    "diff": (".diff", "main"),
    "edits": (".edits", "main"),
    "site": (".site", "main"),
    "whatif": (".whatif", "main"),
    "history": (".history", "main"),
    "lsp": (".lsp", "main"),
}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    names = ",".join(COMMANDS)
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: python -m bench {{{names}}} [options]   (each takes --help)")
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd not in COMMANDS:
        print(f"python -m bench: unknown command {cmd!r}; one of {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module, fn = COMMANDS[cmd]
    return getattr(importlib.import_module(module, __package__), fn)(rest)


if __name__ == "__main__":
    raise SystemExit(main())
