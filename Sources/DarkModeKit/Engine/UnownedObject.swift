/// A reference to an object that does not keep it alive, and tells whether it still is without
/// touching its reference count.
///
/// A weak reference would do the same, but the first one gives its object a side table: from then
/// on every retain and release of the object, anywhere in the app, goes through it, and loading
/// the reference is two atomic operations on it. A switch reads thousands of objects; this reads
/// each one's reference-count word instead.
///
/// The rule that makes it safe: the reference is `unowned`, which keeps the object's memory (not
/// the object) until the reference goes, so its address can be read, and is never another
/// object's, for as long as the reference exists. A deinitialized object is only told apart, never
/// read through; `retained(_:)` hands out a strong reference only while the object is alive, with
/// the runtime's atomic conditional retain. Tests free objects from a value's code, a setter and a
/// deinitializer during a switch, under the address sanitizer in CI.
///
/// Its members read it in place, through a pointer: a copy would count one more reference to the
/// memory, and then one fewer, each an atomic operation.
struct UnownedObject {
  /// The object's address.
  let address: UnsafeMutableRawPointer

  #if canImport(ObjectiveC)
    // An Objective-C object counts its references its own way: a weak reference tells.
    private weak var object: AnyObject?

    init(_ object: AnyObject) {
      self.object = object
      address = Unmanaged.passUnretained(object).toOpaque()
    }

    static func isAlive(_ object: UnsafePointer<UnownedObject>) -> Bool { object.pointee.object != nil }

    static func retained(_ object: UnsafePointer<UnownedObject>) -> AnyObject? { object.pointee.object }
  #else
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
      !RuntimeReferenceCounting.isDeallocating(object.pointee.address)
    }

    /// A strong reference to the object, or `nil` once it is being deinitialized.
    static func retained(_ object: UnsafePointer<UnownedObject>) -> AnyObject? {
      guard let retained = RuntimeReferenceCounting.tryRetain(object.pointee.address) else { return nil }
      return Unmanaged<AnyObject>.fromOpaque(retained).takeRetainedValue()
    }
  #endif
}

#if !canImport(ObjectiveC)
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// The Swift runtime's reference counting of native objects, part of its ABI: C functions,
  /// looked up once (Swift reserves their names for the compiler's own calls).
  private enum RuntimeReferenceCounting {
    /// Whether the object at the address has begun, or finished, its deinitialization.
    static let isDeallocating = function(
      "swift_isDeallocating", as: (@convention(c) (UnsafeMutableRawPointer) -> Bool).self)

    /// Retains the object at the address and returns it, unless it has begun its
    /// deinitialization: then `nil`. One atomic operation.
    static let tryRetain = function(
      "swift_tryRetain", as: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?).self)

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function {
      guard let symbol = dlsym(nil, name) else {
        preconditionFailure("the Swift runtime has no \(name)")
      }
      return unsafeBitCast(symbol, to: type)
    }
  }
#endif
