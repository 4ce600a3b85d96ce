import DarkModeKit
import Foundation

// Every argument must be UTF-8: Swift's `CommandLine.arguments` would replace bad bytes, and a
// file name that is not UTF-8 would then name another file, or none.
for index in 1..<Int(CommandLine.argc) {
  guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
  // Shown byte by byte: printable ASCII as it is, anything else as `\xE9`.
  let shown = UnsafeRawBufferPointer(start: raw, count: strlen(raw)).prefix(64).map { byte in
    (0x20..<0x7F).contains(byte)
      ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true)
  }
  Console.process.error(
    "dmkit: error: argument \(index) is not UTF-8 text: \(shown.joined()); dmkit takes UTF-8 file names and options\n"
  )
  exit(2)
}
exit(MainActor.assumeIsolated { DMKitTool.run(Array(CommandLine.arguments.dropFirst()), console: .process) })
