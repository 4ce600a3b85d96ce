#if !canImport(ObjectiveC)
  internal import CDarkModeKitRuntime
#endif

/// A reference to an object that does not keep it alive, and tells whether it still is without
/// changing its reference count.
///
/// A weak reference would do the same, but the first one gives its object a side table: from then
/// on every retain and release of the object, anywhere in the app, goes through it, and loading
/// the reference is two atomic operations on it. A switch reads thousands of objects; this only
/// reads each one's reference-count word (and its side table's, for an object that has one
/// anyway, because the app holds a weak reference to it), changing nothing.
///
/// The rule that makes it safe: the reference is `unowned`, which keeps the object's memory (not
/// the object) until the reference goes, so its address can be read, and is never another
/// object's, for as long as the reference exists. A deinitialized object is only told apart, never
/// read through; `retained(_:)` hands out a strong reference only while the object is alive, with
/// the runtime's atomic conditional retain. Tests free objects from a value's code, a setter and a
/// deinitializer during a switch, under the address sanitizer in CI, and check that no new object
/// gets the address of a freed one while its reference exists.
///
/// With Objective-C interoperability (Apple's platforms, untested), an object may count its
/// references the Objective-C way: the reference is weak there, and keeps nothing
/// (``keepsMemory`` is `false`).
///
/// Its members read it in place, through a pointer: a copy would count one more reference to the
/// memory, and then one fewer, each an atomic operation.
struct UnownedObject {
  /// The object's address.
  let address: UnsafeMutableRawPointer

  #if canImport(ObjectiveC)
    /// Whether the reference keeps the object's memory: not here.
    static let keepsMemory = false

    private weak var object: AnyObject?

    init(_ object: AnyObject) {
      self.object = object
      address = Unmanaged.passUnretained(object).toOpaque()
    }

    static func isAlive(_ object: UnsafePointer<UnownedObject>) -> Bool { object.pointee.object != nil }

    static func retained(_ object: UnsafePointer<UnownedObject>) -> AnyObject? { object.pointee.object }
  #else
    /// Whether the reference keeps the object's memory, so that writing plain bytes at `address`
    /// is safe even after the object is freed, and no other object can be there.
    static let keepsMemory = true

    /// Keeps the memory at `address`; never read (reading it after the object's deinitialization
    /// traps).
    private unowned let memory: AnyObject

    init(_ object: AnyObject) {
      memory = object
      address = Unmanaged.passUnretained(object).toOpaque()
    }

    /// Whether the object is alive: not being deinitialized, nor deinitialized.
    ///
    /// It stays alive until something releases it: the caller reads the answer before running any
    /// code that could.
    @inline(__always)
    static func isAlive(_ object: UnsafePointer<UnownedObject>) -> Bool {
      !dm_object_is_deallocating(object.pointee.address)
    }

    /// A strong reference to the object, or `nil` once it is being deinitialized.
    static func retained(_ object: UnsafePointer<UnownedObject>) -> AnyObject? {
      guard let retained = dm_object_try_retain(object.pointee.address) else { return nil }
      return Unmanaged<AnyObject>.fromOpaque(retained).takeRetainedValue()
    }
  #endif
}
