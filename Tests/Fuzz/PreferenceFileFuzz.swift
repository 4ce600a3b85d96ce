// Fuzz target: the preference-file reader, `DMPreferenceStore.decode(_:path:)`.
//
// Properties:
// - it returns a choice or throws a `DMPreferenceStoreError` whose description starts with the
//   path;
// - a returned choice, saved with `save` and loaded again, is the same.

import Foundation

func fuzzSeeds() -> [[UInt8]] {
  [
    #"{"contrast":"high","style":"dark","theme":"RED","version":1}"#,
    #"{"contrast":"unspecified","style":"light","theme":null,"version":1}"#,
    #"{"version":1,"style":"unspecified","contrast":"normal"}"#,
    #"{"contrast":"high","style":"da"#,
    "\u{FF}\u{FE}garbage",
    #"{"style":"dark","contrast":"normal"}"#,
    #"{"version":1,"style":"dusk","contrast":"normal"}"#,
    #"{"version":1,"style":"dark"}"#,
    #"{"version":1,"style":"dark","contrast":"normal","theme":7}"#,
    #"{"version":9,"style":"dark","contrast":"normal"}"#,
    #"{"version":0,"style":"dark","contrast":"normal","theme":""}"#,
    #"{"version":1.0,"style":"dark","contrast":"high","theme":"🙂"}"#,
    "[1,2]", "", "null",
  ].map { Array($0.utf8) }
}

private let path = "/fuzz/appearance.json"

/// A store in a scratch folder, in memory when `/dev/shm` exists, so that saving is fast.
private let store: DMPreferenceStore = {
  let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
  let folder = URL(fileURLWithPath: base).appendingPathComponent("dmkit-fuzz-\(getpid())")
  return DMPreferenceStore(fileURL: folder.appendingPathComponent("appearance.json"))
}()

/// libFuzzer calls this with each input; a broken property aborts the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Data(UnsafeBufferPointer(start: data, count: size))
  let traits: DMTraitCollection
  do {
    traits = try DMPreferenceStore.decode(input, path: path)
  } catch {
    require(error.description.hasPrefix(path + ": "), "the message starts with the path: \(error)")
    return 0
  }
  do {
    try store.save(traits)
    let loaded = try store.load()
    require(loaded == traits, "saved \(traits), loaded \(String(describing: loaded))")
  } catch {
    require(false, "\(traits) cannot be saved and loaded: \(error)")
  }
  return 0
}
