import AnywallCLI

AnywallMain.run(Array(CommandLine.arguments.dropFirst()))
