// Borrowing without reference counting on the propagation path.
//
// The standard library's closure-taking functions would do, but a closure written in main-actor
// code and handed to them is checked for running on the main actor every time it is called,
// which costs more than the work it does on that path. Closures handed to
// this wrapper, or to `UnsafeBindingStorage.withElements`, are not. For the same reason, what
// must live until after an access is kept with `extendLifetime(_:)`, which takes no closure, and
// not with `withExtendedLifetime(_:_:)`.

extension Unmanaged {
  /// Runs `body` with the instance, borrowed for the call: neither retained nor released.
  ///
  /// The caller guarantees that the instance stays alive until `body` returns.
  @inlinable
  @inline(__always)
  func borrow<Result>(_ body: (Instance) -> Result) -> Result {
    _withUnsafeGuaranteedRef(body)
  }
}
