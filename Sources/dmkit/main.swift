import Foundation

exit(MainActor.assumeIsolated { DMKitTool.run(Array(CommandLine.arguments.dropFirst()), console: .process) })
