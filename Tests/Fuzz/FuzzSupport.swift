// Shared by every fuzz target: compiled into each one next to its entry file (see `.ci/fuzz`).

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stops the run when a property does not hold; libFuzzer then saves the input as a crash.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if condition { return }
  FileHandle.standardError.write(Data(("property failed: " + message() + "\n").utf8))
  abort()
}

/// The input as an array.
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}

/// Writes the target's seeds (`fuzzSeeds()`, defined by each entry file) into the folder named by
/// `DMKIT_FUZZ_WRITE_SEEDS`, then exits; without the variable, libFuzzer runs as usual.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  guard let folder = ProcessInfo.processInfo.environment["DMKIT_FUZZ_WRITE_SEEDS"] else { return 0 }
  let url = URL(fileURLWithPath: folder, isDirectory: true)
  do {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (number, seed) in fuzzSeeds().enumerated() {
      try Data(seed).write(to: url.appendingPathComponent("seed-\(number)"))
    }
  } catch {
    FileHandle.standardError.write(Data("cannot write the seeds: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}
