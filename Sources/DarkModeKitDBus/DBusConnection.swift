import DarkModeKitText
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client connection to a D-Bus message bus, written in Swift on top of a Unix socket.
///
/// Connecting authenticates with SASL `EXTERNAL` and sends `Hello`; a reader thread then
/// delivers replies and signals. Every operation has a timeout; a lost connection ends pending
/// calls and signal streams with ``DBusError/disconnected(reason:)``.
///
/// ```swift
/// let bus = try await DBusConnection.connect()  // the session bus
/// let reply = try await bus.call(
///   destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
///   interface: "org.freedesktop.portal.Settings", member: "ReadOne",
///   arguments: ["org.freedesktop.appearance", "color-scheme"])
/// ```
///
/// The connection closes when ``close()`` is called or when the last reference goes away.
public final class DBusConnection: Sendable {
  /// The bus name of the message bus itself.
  public static let busName = "org.freedesktop.DBus"
  /// The default timeout of connecting and of calls: 5 seconds.
  public static let defaultTimeout: Duration = .seconds(5)
  /// The longest message a connection accepts unless told otherwise: 4 MiB, far more than a
  /// portal or the bus itself sends, far less than the 128 MiB the specification allows.
  public static let defaultMaximumMessageLength = 4 << 20

  let core: DBusConnectionCore

  /// The unique name the bus assigned to this connection, such as `:1.42`.
  public var uniqueName: String { core.uniqueName }

  /// Whether the connection is still open.
  public var isConnected: Bool { core.isConnected }

  /// The longest message this connection accepts, in bytes. A longer one is dropped as it arrives,
  /// without being kept or read; a call whose reply it was fails with
  /// ``DBusError/messageTooLarge(length:limit:)``.
  public var maximumMessageLength: Int { core.maximumMessageLength }

  /// Connects to a bus, blocking the calling thread for at most `timeout`.
  ///
  /// Prefer ``connect(to:timeout:maximumMessageLength:)`` from async code.
  ///
  /// - Parameters:
  ///   - address: A D-Bus address such as `unix:path=/run/user/1000/bus`; several may be given,
  ///     separated by `;`, and are tried in order. `unix:abstract=` works on Linux.
  ///   - timeout: The limit for connecting, authenticating and `Hello` together.
  ///   - maximumMessageLength: The longest message to accept (see ``maximumMessageLength``).
  /// - Throws: ``DBusError/invalidAddress(address:reason:)``,
  ///   ``DBusError/connectionFailed(address:reason:)``,
  ///   ``DBusError/authenticationFailed(reason:)`` or ``DBusError/timedOut(operation:)``.
  public convenience init(
    address: String, timeout: Duration = DBusConnection.defaultTimeout,
    maximumMessageLength: Int = DBusConnection.defaultMaximumMessageLength
  ) throws {
    try self.init(
      address: address, timeout: timeout, repliesToMethodCalls: true,
      maximumMessageLength: maximumMessageLength)
  }

  /// Connects to a bus; see ``init(address:timeout:maximumMessageLength:)``.
  ///
  /// - Parameters:
  ///   - address: A D-Bus address; several may be separated by `;`.
  ///   - timeout: The limit for connecting, authenticating and `Hello` together.
  ///   - repliesToMethodCalls: Whether calls addressed to this connection get an `UnknownMethod`
  ///     error reply (`Peer.Ping` a return). Tests turn it off to build a peer that never answers.
  ///   - maximumMessageLength: The longest message to accept.
  /// - Throws: A ``DBusError``, as ``init(address:timeout:maximumMessageLength:)`` does.
  package init(
    address: String, timeout: Duration, repliesToMethodCalls: Bool,
    maximumMessageLength: Int = DBusConnection.defaultMaximumMessageLength
  ) throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let entries = try DBusAddress.parseList(address)
    var failures: [DBusError] = []
    for entry in entries {
      let text = Self.describe(entry)
      do {
        let fd = try DBusSocket.connect(to: entry, text: text, deadline: deadline)
        do {
          var handshake = DBusHandshake(fd: fd, address: text, deadline: deadline)
          _ = try handshake.authenticate()
          let name = try handshake.hello()
          core = try DBusConnectionCore(
            socket: fd, uniqueName: name, repliesToMethodCalls: repliesToMethodCalls,
            maximumMessageLength: maximumMessageLength)
          core.start(buffered: handshake.buffer)
          return
        } catch {
          _ = closeDescriptor(fd)
          throw error
        }
      } catch let error as DBusError {
        failures.append(error)
      }
    }
    if failures.count == 1 { throw failures[0] }
    // The first few, then how many more: an address list from outside may name thousands.
    let shown = failures.prefix(Self.failuresShown).map(\.description)
    let more = failures.count > Self.failuresShown ? ["and \(failures.count - Self.failuresShown) more"] : []
    throw DBusError.connectionFailed(address: address, reason: (shown + more).joined(separator: "; "))
  }

  /// How many of the addresses that failed an error names, when a list of them all failed.
  static let failuresShown = 4

  /// Connects to a bus without blocking the caller: the blocking work runs on its own thread.
  ///
  /// - Parameters:
  ///   - address: A D-Bus address, or `nil` for the session bus: `DBUS_SESSION_BUS_ADDRESS`, else
  ///     `$XDG_RUNTIME_DIR/bus` when that socket exists.
  ///   - timeout: The limit for connecting, authenticating and `Hello` together.
  ///   - maximumMessageLength: The longest message to accept (see ``maximumMessageLength``).
  /// - Returns: The open connection.
  /// - Throws: A ``DBusError``, as ``init(address:timeout:maximumMessageLength:)`` does.
  public static func connect(
    to address: String? = nil, timeout: Duration = DBusConnection.defaultTimeout,
    maximumMessageLength: Int = DBusConnection.defaultMaximumMessageLength
  ) async throws -> DBusConnection {
    let address = try address ?? DBusAddress.sessionBus()
    // Handed over behind a lock: the connection is made on another thread, and the lock orders
    // its making before any use where ThreadSanitizer can see it.
    let made = Locked<Result<DBusConnection, any Error>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        let result = Result {
          try DBusConnection(address: address, timeout: timeout, maximumMessageLength: maximumMessageLength)
        }
        made.withLock { $0 = result }
        continuation.resume()
      }
      thread.name = "DBusConnection connect"
      thread.start()
    }
    // Set before the continuation was resumed.
    return try made.withLock { $0! }.get()
  }

  deinit {
    core.shutDown(error: nil)
  }

  /// Closes the connection. Pending calls fail with ``DBusError/disconnected(reason:)`` and signal
  /// streams finish without an error. Calling it again does nothing.
  public func close() {
    core.shutDown(error: nil)
  }

  // MARK: Calls

  /// Calls a method and returns the values of its reply.
  ///
  /// - Parameters:
  ///   - destination: The bus name of the service, such as `org.freedesktop.portal.Desktop`.
  ///   - path: The object path.
  ///   - interface: The interface of the method.
  ///   - member: The method name.
  ///   - arguments: The arguments; their types form the call's signature.
  ///   - timeout: How long to wait for the reply.
  /// - Returns: The body of the method return.
  /// - Throws: ``DBusError/remote(name:message:)`` for an error reply,
  ///   ``DBusError/timedOut(operation:)``, ``DBusError/disconnected(reason:)``,
  ///   ``DBusError/invalidValue(_:)`` for arguments or names that cannot be sent, or
  ///   `CancellationError` when the task is cancelled.
  public func call(
    destination: String?, path: String, interface: String?, member: String,
    arguments: [DBusValue] = [], timeout: Duration = DBusConnection.defaultTimeout
  ) async throws -> [DBusValue] {
    let message = DBusMessage(
      type: .methodCall, path: path, interface: interface, member: member,
      destination: destination, body: arguments)
    return try await call(message, timeout: timeout).body
  }

  /// Sends a method call message and returns the method return message.
  package func call(_ message: DBusMessage, timeout: Duration) async throws -> DBusMessage {
    let serial = Locked<UInt32?>(nil)
    // The reply travels through a lock rather than inside the continuation, so that the thread
    // sanitizer sees the reader thread's writes happen before the caller reads them.
    let outcome = Locked<Result<DBusMessage, any Error>?>(nil)
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let sent = core.call(message, timeout: timeout) { result in
          outcome.withLock { $0 = result }
          continuation.resume()
        }
        serial.withLock { $0 = sent }
        if Task.isCancelled { core.cancel(serial: sent) }
      }
    } onCancel: {
      if let sent = serial.withLock({ $0 }) { core.cancel(serial: sent) }
    }
    return try outcome.withLock { $0 }!.get()
  }

  /// Reads a property with `org.freedesktop.DBus.Properties.Get`.
  ///
  /// - Parameters:
  ///   - name: The property name, such as `version`.
  ///   - interface: The interface that has the property.
  ///   - destination: The bus name of the service.
  ///   - path: The object path.
  ///   - timeout: How long to wait for the reply.
  /// - Returns: The value, taken out of the variant the reply wraps it in.
  /// - Throws: As ``call(destination:path:interface:member:arguments:timeout:)`` does, and
  ///   ``DBusError/malformedMessage(offset:reason:)`` when the reply is not one variant.
  public func property(
    _ name: String, interface: String, destination: String, path: String,
    timeout: Duration = DBusConnection.defaultTimeout
  ) async throws -> DBusValue {
    let reply = try await call(
      destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
      member: "Get", arguments: [.string(interface), .string(name)], timeout: timeout)
    guard reply.count == 1, case .variant(let value) = reply[0] else {
      let signature = reply.map(\.type.description).joined()
      throw DBusError.malformedMessage(
        offset: 0, reason: "Properties.Get replied \(ShownText.quoted(signature)), expected \"v\"")
    }
    return value
  }

  /// Sends a signal.
  package func emitSignal(
    path: String, interface: String, member: String, arguments: [DBusValue] = [],
    destination: String? = nil, timeout: Duration = DBusConnection.defaultTimeout
  ) throws {
    let message = DBusMessage(
      type: .signal, path: path, interface: interface, member: member, destination: destination,
      body: arguments)
    try core.send(message, timeout: timeout)
  }

  // MARK: Signals

  /// Asks the bus to route signals that match `rule` to this connection (`AddMatch`).
  ///
  /// ``signals(matching:timeout:)`` does this for you; use this only to manage rules yourself.
  ///
  /// - Parameters:
  ///   - rule: The signals to receive.
  ///   - timeout: How long to wait for the bus to confirm.
  /// - Throws: ``DBusError/invalidValue(_:)`` for a bad rule field, or as
  ///   ``call(destination:path:interface:member:arguments:timeout:)`` does.
  public func addMatch(_ rule: DBusMatchRule, timeout: Duration = DBusConnection.defaultTimeout)
    async throws
  {
    try await callBus("AddMatch", with: rule, timeout: timeout)
  }

  /// Removes a rule added with ``addMatch(_:timeout:)`` (`RemoveMatch`).
  ///
  /// - Parameters:
  ///   - rule: The rule to remove.
  ///   - timeout: How long to wait for the bus to confirm.
  /// - Throws: As ``call(destination:path:interface:member:arguments:timeout:)`` does;
  ///   `org.freedesktop.DBus.Error.MatchRuleNotFound` when the rule was not added.
  public func removeMatch(_ rule: DBusMatchRule, timeout: Duration = DBusConnection.defaultTimeout)
    async throws
  {
    try await callBus("RemoveMatch", with: rule, timeout: timeout)
  }

  /// Calls `member` of the bus itself with a validated match rule.
  private func callBus(_ member: String, with rule: DBusMatchRule, timeout: Duration) async throws {
    try rule.validate()
    _ = try await call(
      destination: Self.busName, path: "/org/freedesktop/DBus", interface: Self.busName,
      member: member, arguments: [.string(rule.description)], timeout: timeout)
  }

  /// Calls `handler` on the connection's reader thread with each signal that matches `rule`, as
  /// soon as it is read, without a hop through a task: for a client that must act on each signal at
  /// once, and for measuring the least time a client takes to receive one. The handler must
  /// return soon, as no other message is read meanwhile. The subscription lasts as long as the
  /// connection.
  package func onSignals(
    matching rule: DBusMatchRule, timeout: Duration = DBusConnection.defaultTimeout,
    handler: @escaping @Sendable (DBusMessage) -> Void
  ) async throws {
    try rule.validate()
    _ = try core.subscribe(rule) { event in
      if case .signal(let message) = event { handler(message) }
    }
    try await addMatch(rule, timeout: timeout)
  }

  /// Subscribes to the signals that match `rule`.
  ///
  /// The match is added on the bus before this returns, so no signal sent afterwards is missed.
  /// The stream finishes when the connection is closed, and throws
  /// ``DBusError/disconnected(reason:)`` when it is lost. Ending the iteration (or cancelling the
  /// task) removes the match. The stream keeps the newest 256 signals when its reader falls behind.
  ///
  /// ```swift
  /// for try await signal in try await bus.signals(matching: rule) {
  ///   print(signal.member ?? "", signal.body)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - rule: The signals to receive.
  ///   - timeout: How long to wait for `AddMatch`.
  /// - Returns: A stream of signal messages.
  /// - Throws: As ``addMatch(_:timeout:)`` does, and ``DBusError/disconnected(reason:)`` when the
  ///   connection is already closed.
  public func signals(
    matching rule: DBusMatchRule, timeout: Duration = DBusConnection.defaultTimeout
  ) async throws -> AsyncThrowingStream<DBusMessage, any Error> {
    try rule.validate()
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: DBusMessage.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(256))
    // The reader thread yields under the lock, and the reader takes it after each signal (see
    // `SignalReader`). The subscription holds the lock, not the reader, so that dropping the
    // stream ends it.
    // Counts the signals yielded; an empty state would leave the lock's state untouched, which
    // the sanitizer then sees accessed outside it.
    let handOff = Locked<UInt64>(0)
    let id = try core.subscribe(rule) { event in
      switch event {
      case .signal(let message):
        handOff.withLock { yielded in
          yielded &+= 1
          _ = continuation.yield(message)
        }
      case .ended(let error): continuation.finish(throwing: error)
      }
    }
    let core = core
    let matchAdded = Locked(false)
    continuation.onTermination = { _ in
      core.unsubscribe(id)
      guard matchAdded.withLock({ $0 }) else { return }
      // Best effort and without waiting: a closed connection has no rules left anyway.
      let message = DBusMessage(
        type: .methodCall, flags: .noReplyExpected, path: "/org/freedesktop/DBus",
        interface: Self.busName, member: "RemoveMatch", destination: Self.busName,
        body: [.string(rule.description)])
      try? core.send(message, timeout: .seconds(1))
    }
    do {
      try await addMatch(rule, timeout: timeout)
      matchAdded.withLock { $0 = true }
    } catch {
      continuation.finish(throwing: error)
      throw error
    }
    let reader = SignalReader(stream, handOff: handOff)
    return AsyncThrowingStream { try await reader.next() }
  }

  private static func describe(_ address: DBusAddress) -> String {
    let parameters = address.parameters.sorted { $0.key < $1.key }
      .map { "\($0.key)=\(DBusAddress.escape($0.value))" }
    return address.transport + ":" + parameters.joined(separator: ",")
  }
}

private func closeDescriptor(_ fd: Int32) -> Int32 {
  close(fd)
}

/// Reads the signals of one subscription, taking the hand-off lock after each, which the reader
/// thread holds while it yields: a lock that the thread sanitizer sees.
///
/// The concurrency runtime's own hand-off is invisible to ThreadSanitizer on Linux, so without
/// it a reader that finds a signal already buffered looks, to the sanitizer, as if it read the
/// message while the reader thread was still writing it. The lock orders the two as the runtime
/// already does.
private final class SignalReader: @unchecked Sendable {
  // Safe: `iterator` is used only by `next()`, which the stream calls for its single reader, one
  // call at a time.
  private var iterator: AsyncThrowingStream<DBusMessage, any Error>.AsyncIterator
  private let handOff: Locked<UInt64>

  init(_ stream: AsyncThrowingStream<DBusMessage, any Error>, handOff: Locked<UInt64>) {
    iterator = stream.makeAsyncIterator()
    self.handOff = handOff
  }

  func next() async throws -> DBusMessage? {
    let message = try await iterator.next()
    _ = handOff.withLock { $0 }
    return message
  }
}
