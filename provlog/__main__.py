from provlog.queries.cli import main

main()
