"""python -m bench {generate,run,table,check,cites} ... (see bench/README.md)."""
import sys


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m bench {generate,run,table,check,cites} [options]   (each takes --help)")
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "generate":
        from .generate import main as m
    elif cmd == "run":
        from .run import main as m
    elif cmd == "table":
        from .run import table_main as m
    elif cmd == "check":
        from .clingo_check import main as m
    elif cmd == "cites":
        from .cites import main as m
    else:
        print(f"python -m bench: unknown command {cmd!r}; one of generate, run, table, check, cites", file=sys.stderr)
        return 2
    return m(rest)


if __name__ == "__main__":
    raise SystemExit(main())
