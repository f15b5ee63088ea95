from bgtools.cli.app import main

main()
