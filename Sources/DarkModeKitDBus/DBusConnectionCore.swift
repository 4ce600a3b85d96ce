import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shared machinery of a connection: the socket, the reader thread, pending calls and signal
/// subscribers.
///
/// Three locks, none held while a callback runs: `socketOpen` is held by the one writer at a time
/// (and `state` may be taken inside it, never the reverse); `state` and `wakeWrite` are held briefly.
/// The reader thread alone reads the socket and, on its way out, closes it under `socketOpen` and the
/// wake pipe under `wakeWrite`, so no writer ever uses a closed (or reused) descriptor number.
final class DBusConnectionCore: Sendable {
  typealias Completion = @Sendable (Result<DBusMessage, any Error>) -> Void

  /// What a signal subscriber receives: signals, then one end (`nil` for a clean close).
  enum SignalEvent: Sendable {
    case signal(DBusMessage)
    case ended(DBusError?)
  }
  typealias SignalHandler = @Sendable (SignalEvent) -> Void

  private struct PendingCall {
    let deadline: ContinuousClock.Instant
    let operation: String
    let completion: Completion
  }

  private struct Subscriber {
    let rule: DBusMatchRule
    let handler: SignalHandler
  }

  private struct State {
    var isClosed = false
    /// Why the connection ended; `nil` while open or after a clean `close()`.
    var endError: DBusError?
    var nextSerial: UInt32 = 2  // 1 was Hello
    var pending: [UInt32: PendingCall] = [:]
    var subscribers: [UInt64: Subscriber] = [:]
    var nextSubscriberID: UInt64 = 1

    mutating func allocateSerial() -> UInt32 {
      let serial = nextSerial
      nextSerial = nextSerial == .max ? 1 : nextSerial + 1
      return serial
    }

    var nextDeadline: ContinuousClock.Instant? {
      pending.values.lazy.map(\.deadline).min()
    }

    var closedError: DBusError {
      endError ?? .disconnected(reason: "the connection was closed")
    }
  }

  let uniqueName: String
  let repliesToMethodCalls: Bool
  /// The longest message accepted; longer ones are dropped unread.
  let maximumMessageLength: Int
  private let socketFD: Int32
  private let wakeRead: Int32
  private let state = Locked(State())
  /// Whether the socket is open; held while writing.
  private let socketOpen = Locked(true)
  /// The write end of the wake pipe, `nil` once closed.
  private let wakeWrite: Locked<Int32?>

  init(socket: Int32, uniqueName: String, repliesToMethodCalls: Bool, maximumMessageLength: Int) throws {
    let pipe = try DBusSocket.makeWakePipe()
    self.socketFD = socket
    self.uniqueName = uniqueName
    self.repliesToMethodCalls = repliesToMethodCalls
    self.maximumMessageLength = maximumMessageLength
    self.wakeRead = pipe.read
    self.wakeWrite = Locked(pipe.write)
  }

  /// Starts the reader thread, which owns the descriptors from now on.
  func start(buffered: DBusReadBuffer) {
    let thread = Thread { [self] in runReader(buffer: buffered) }
    thread.name = "DBusConnection reader"
    thread.start()
  }

  var isConnected: Bool { state.withLock { !$0.isClosed } }

  // MARK: Sending

  /// Sends a method call; `completion` runs exactly once, with the reply, the error reply as
  /// ``DBusError/remote(name:message:)``, a timeout, a disconnect or a cancellation.
  ///
  /// - Returns: The serial used, to pass to ``cancel(serial:)``; 0 when it failed at once.
  @discardableResult
  func call(_ message: DBusMessage, timeout: Duration, completion: @escaping Completion) -> UInt32 {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let operation = message.operationName
    var message = message
    let serial: UInt32? = state.withLock { $0.isClosed ? nil : $0.allocateSerial() }
    guard let serial else {
      completion(.failure(state.withLock { $0.closedError }))
      return 0
    }
    message.serial = serial
    let bytes: [UInt8]
    do {
      bytes = try message.encoded()
    } catch {
      completion(.failure(error))
      return 0
    }
    let call = PendingCall(deadline: deadline, operation: operation, completion: completion)
    let closedError: DBusError? = state.withLock { state in
      if state.isClosed { return state.closedError }
      state.pending[serial] = call
      return nil
    }
    if let closedError {
      completion(.failure(closedError))
      return 0
    }
    wakeReader()  // the reader recomputes its poll timeout from the new deadline
    do {
      try write(bytes, deadline: deadline, operation: operation)
    } catch {
      if let call = state.withLock({ $0.pending.removeValue(forKey: serial) }) {
        call.completion(.failure(error))
      }
    }
    return serial
  }

  /// Ends a pending call with `CancellationError`, if it is still pending.
  func cancel(serial: UInt32) {
    if let call = state.withLock({ $0.pending.removeValue(forKey: serial) }) {
      call.completion(.failure(CancellationError()))
    }
  }

  /// Sends a message that expects no reply (a signal, a reply, or a call flagged so).
  func send(_ message: DBusMessage, timeout: Duration) throws {
    var message = message
    let serial: UInt32? = state.withLock { $0.isClosed ? nil : $0.allocateSerial() }
    guard let serial else { throw state.withLock { $0.closedError } }
    message.serial = serial
    try write(
      try message.encoded(), deadline: ContinuousClock.now.advanced(by: timeout),
      operation: message.operationName)
  }

  private func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant, operation: String) throws {
    enum Outcome {
      case sent
      case closed
      case timedOut(partial: Bool)
      case failed(DBusError)
    }
    let outcome: Outcome = socketOpen.withLock { isOpen in
      guard isOpen else { return .closed }
      do {
        let sent = try DBusSocket.sendAll(socketFD, bytes, deadline: deadline) {
          state.withLock { $0.isClosed }
        }
        if sent == bytes.count { return .sent }
        return state.withLock { $0.isClosed } ? .closed : .timedOut(partial: sent > 0)
      } catch let error as DBusError {
        return .failed(error)
      } catch {
        return .failed(.disconnected(reason: "\(error)"))
      }
    }
    switch outcome {
    case .sent:
      return
    case .closed:
      throw state.withLock { $0.closedError }
    case .timedOut(let partial):
      let error = DBusError.timedOut(operation: "sending \(operation)")
      // Half a message on the stream cannot be taken back: the connection is unusable.
      if partial { shutDown(error: .disconnected(reason: "\(error) after a partial write")) }
      throw error
    case .failed(let error):
      shutDown(error: error)
      throw error
    }
  }

  private func wakeReader() {
    wakeWrite.withLock { fd in
      guard let fd else { return }
      var byte: UInt8 = 1
      _ = writeDescriptor(fd, &byte, 1)  // a full pipe already means "wake up"
    }
  }

  // MARK: Signals

  /// Registers a signal handler.
  ///
  /// - Returns: An identifier for ``unsubscribe(_:)``.
  /// - Throws: ``DBusError/disconnected(reason:)`` (or why it ended) when the connection is closed.
  func subscribe(_ rule: DBusMatchRule, handler: @escaping SignalHandler) throws -> UInt64 {
    let result: Result<UInt64, DBusError> = state.withLock { state in
      if state.isClosed { return .failure(state.closedError) }
      let id = state.nextSubscriberID
      state.nextSubscriberID += 1
      state.subscribers[id] = Subscriber(rule: rule, handler: handler)
      return .success(id)
    }
    return try result.get()
  }

  /// Removes a signal handler; it gets no further events.
  func unsubscribe(_ id: UInt64) {
    _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
  }

  // MARK: Closing

  /// Ends the connection once: pending calls fail, subscribers get `.ended(error)`, and the reader
  /// thread closes the socket. Later calls do nothing.
  ///
  /// - Parameter error: Why it ended; `nil` for a clean close by the client.
  func shutDown(error: DBusError?) {
    let taken: ([PendingCall], [Subscriber])? = state.withLock { state in
      guard !state.isClosed else { return nil }
      state.isClosed = true
      state.endError = error
      defer {
        state.pending.removeAll()
        state.subscribers.removeAll()
      }
      return (Array(state.pending.values), Array(state.subscribers.values))
    }
    guard let (calls, subscribers) = taken else { return }
    wakeReader()
    let callError = error ?? DBusError.disconnected(reason: "the connection was closed")
    for call in calls { call.completion(.failure(callError)) }
    for subscriber in subscribers { subscriber.handler(.ended(error)) }
  }

  // MARK: Reader thread

  private func runReader(buffer initial: DBusReadBuffer) {
    var buffer = initial
    do {
      try processMessages(in: &buffer)
      while let nextDeadline = state.withLock({ $0.isClosed ? nil : Optional($0.nextDeadline) }) {
        var entries = [
          pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let timeout = nextDeadline.map(DBusSocket.milliseconds(until:)) ?? -1
        let ready = poll(&entries, 2, timeout)
        if ready < 0 && errno != EINTR {
          throw DBusError.disconnected(reason: "poll: \(DBusSocket.describe(errno))")
        }
        if entries[1].revents != 0 { drainWakePipe() }
        if entries[0].revents & Int16(POLLNVAL) != 0 {
          throw DBusError.disconnected(reason: "the socket became invalid")
        }
        if entries[0].revents != 0 {
          if try buffer.receive(from: socketFD) == .endOfFile {
            throw DBusError.disconnected(reason: "the bus closed the connection")
          }
          try processMessages(in: &buffer)
        }
        expireCalls()
      }
    } catch let error as DBusError {
      shutDown(error: error)
    } catch {
      shutDown(error: .disconnected(reason: "\(error)"))
    }
    socketOpen.withLock { isOpen in
      isOpen = false
      _ = close(socketFD)
    }
    wakeWrite.withLock { fd in
      if let fd { _ = close(fd) }
      fd = nil
    }
    _ = close(wakeRead)
  }

  private func drainWakePipe() {
    var scratch = [UInt8](repeating: 0, count: 64)
    while scratch.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// Takes every whole message from `buffer` and hands it on.
  ///
  /// The header is read first, and the body only when someone waits for it: the reply to a
  /// pending call, or a signal that a subscriber's rule selects by its header. Anything else (a
  /// reply nobody waits for, a signal no rule wants, a method call, which is answered from its
  /// header) is dropped without reading its body, and a message over the limit is dropped as it
  /// arrives. A message that breaks the format in its header or body is dropped too (the call it
  /// answers fails with the reason): its length is known, so the stream stays in step.
  private func processMessages(in buffer: inout DBusReadBuffer) throws {
    while let frame = try buffer.takeMessage(limit: maximumMessageLength) {
      switch frame {
      case .message(let bytes):
        // The specification asks receivers to ignore messages of unknown types.
        guard DBusMessageType(rawValue: bytes[1]) != nil,
          let (message, body) = try? DBusMessage.decodingHeader(of: bytes)
        else { continue }
        receive(message, body: body, of: bytes)
      case .tooLarge(let header, let length):
        guard !header.isEmpty, let (message, _) = try? DBusMessage.decodingHeader(of: header) else {
          continue
        }
        // A caller waiting for it learns why it gets none; a method call is answered as any.
        if let call = takeCall(answeredBy: message) {
          call.completion(.failure(DBusError.messageTooLarge(length: length, limit: maximumMessageLength)))
        } else if message.type == .methodCall {
          answer(message)
        }
      }
    }
  }

  /// The pending call that `message` answers, taken out, if it is a reply to one.
  private func takeCall(answeredBy message: DBusMessage) -> PendingCall? {
    guard message.type == .methodReturn || message.type == .error, let replySerial = message.replySerial
    else { return nil }
    return state.withLock { $0.pending.removeValue(forKey: replySerial) }
  }

  private func receive(_ header: DBusMessage, body: DBusMessage.Body, of bytes: [UInt8]) {
    switch header.type {
    case .methodReturn, .error:
      guard let call = takeCall(answeredBy: header) else { return }
      // A reply that comes after its deadline (the reader was busy) is a timeout, as it would have
      // been had the deadline been checked first.
      guard ContinuousClock.now <= call.deadline else {
        call.completion(.failure(DBusError.timedOut(operation: call.operation)))
        return
      }
      var message = header
      do {
        try message.decodeBody(body, of: bytes)
      } catch {
        call.completion(.failure(error))
        return
      }
      if message.type == .error {
        let text = message.body.first?.stringValue
        call.completion(.failure(DBusError.remote(name: message.errorName ?? "", message: text)))
      } else {
        call.completion(.success(message))
      }
    case .signal:
      let candidates = state.withLock { state in
        state.subscribers.values.filter { $0.rule.matchesHeader(header) }
      }
      guard !candidates.isEmpty else { return }
      var message = header
      guard (try? message.decodeBody(body, of: bytes)) != nil else { return }
      for subscriber in candidates where subscriber.rule.matches(message) {
        subscriber.handler(.signal(message))
      }
    case .methodCall:
      answer(header)
    }
  }

  /// Answers calls addressed to this connection: `Peer.Ping` succeeds, anything else is unknown.
  ///
  /// The answer names the method, interface and path cut to 64 characters each: a caller that
  /// sends long names and never reads its answers cannot make this connection write much.
  private func answer(_ call: DBusMessage) {
    guard repliesToMethodCalls, !call.flags.contains(.noReplyExpected), let sender = call.sender
    else { return }
    var reply = DBusMessage(type: .methodReturn, replySerial: call.serial, destination: sender)
    if call.interface != "org.freedesktop.DBus.Peer" || call.member != "Ping" {
      func cut(_ name: String?) -> String {
        let name = name ?? ""
        return name.count > 64 ? name.prefix(64) + "…" : name
      }
      reply.type = .error
      reply.errorName = "org.freedesktop.DBus.Error.UnknownMethod"
      reply.body = [
        .string(
          "No such method '\(cut(call.member))' on interface '\(cut(call.interface))' at path '\(cut(call.path))'"
        )
      ]
    }
    try? send(reply, timeout: .seconds(1))
  }

  private func expireCalls() {
    let now = ContinuousClock.now
    let expired: [PendingCall] = state.withLock { state in
      let serials = state.pending.filter { $0.value.deadline <= now }.map(\.key)
      return serials.compactMap { state.pending.removeValue(forKey: $0) }
    }
    for call in expired { call.completion(.failure(DBusError.timedOut(operation: call.operation))) }
  }
}

/// `write(2)`, named apart from the `write` method of the connection core.
private func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
