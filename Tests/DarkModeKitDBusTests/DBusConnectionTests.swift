import Foundation
import Testing

@testable import DarkModeKitDBus

// Unix sockets, dbus-daemon and posix_spawn as used here exist on Linux; elsewhere these tests
// are not built.
#if os(Linux)
  import Glibc

  private let busPath = "/org/freedesktop/DBus"
  private let busName = DBusConnection.busName

  /// Claims `name` on a connection that never answers calls, as a hung service would.
  private func silentService(_ address: String, name: String) async throws -> DBusConnection {
    let service = try DBusConnection(address: address, timeout: .seconds(5), repliesToMethodCalls: false)
    let reply = try await service.call(
      destination: busName, path: busPath, interface: busName, member: "RequestName",
      arguments: [.string(name), .uint32(4)])
    #expect(reply == [.uint32(1)])  // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
    return service
  }

  private func dbusError(_ body: () async throws -> Void) async -> DBusError? {
    do {
      try await body()
      return nil
    } catch let error as DBusError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  @Suite(.enabled(if: PrivateBus.isAvailable, "dbus-daemon is not installed"))
  struct DBusConnectionTests {
    @Test func helloGivesEachConnectionAUniqueName() async throws {
      try await withPrivateBus { bus in
        let first = try await DBusConnection.connect(to: bus.address)
        let second = try await DBusConnection.connect(to: bus.address)
        #expect(first.uniqueName.hasPrefix(":"))
        #expect(second.uniqueName.hasPrefix(":"))
        #expect(first.uniqueName != second.uniqueName)
        #expect(first.isConnected)
      }
    }

    @Test func busMethodsCanBeCalled() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: bus.address)
        let names = try await connection.call(
          destination: busName, path: busPath, interface: busName, member: "ListNames")
        let list = names.first?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(list.contains(busName))
        #expect(list.contains(connection.uniqueName))
        let id = try await connection.call(
          destination: busName, path: busPath, interface: busName, member: "GetId")
        let text = try #require(id.first?.stringValue)
        #expect(text.count == 32 && text.allSatisfy(\.isHexDigit))
        let owner = try await connection.call(
          destination: busName, path: busPath, interface: busName, member: "GetNameOwner",
          arguments: [.string(connection.uniqueName)])
        #expect(owner == [.string(connection.uniqueName)])
      }
    }

    @Test func propertiesCanBeRead() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: bus.address)
        let interfaces = try await connection.property(
          "Interfaces", interface: busName, destination: busName, path: busPath)
        #expect(interfaces.type == .array(.string))
      }
    }

    @Test func manyConcurrentCallsAllGetTheirOwnReply() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: bus.address)
        let replies = try await withThrowingTaskGroup(of: [DBusValue].self) { group in
          for index in 0..<40 {
            group.addTask {
              try await connection.call(
                destination: busName, path: busPath, interface: busName, member: "NameHasOwner",
                arguments: [.string(index.isMultiple(of: 2) ? busName : "org.example.Nobody\(index)")])
            }
          }
          return try await group.reduce(into: [Bool]()) { $0.append($1.first?.boolValue ?? false) }
        }
        #expect(replies.count == 40)
        #expect(replies.filter { $0 }.count == 20)
      }
    }

    @Test func unknownMethodsGiveTheErrorNameAndMessage() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: bus.address)
        let error = await dbusError {
          _ = try await connection.call(
            destination: busName, path: busPath, interface: busName, member: "NoSuchMethod")
        }
        #expect(error?.remoteName == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(error?.description.contains("NoSuchMethod") == true)
        let missing = await dbusError {
          _ = try await connection.call(
            destination: "org.example.NotThere", path: "/", interface: "org.example.I", member: "M")
        }
        #expect(missing?.remoteName == "org.freedesktop.DBus.Error.ServiceUnknown")
      }
    }

    @Test func callsToThisClientGetUnknownMethodOrPing() async throws {
      try await withPrivateBus { bus in
        let caller = try await DBusConnection.connect(to: bus.address)
        let callee = try await DBusConnection.connect(to: bus.address)
        let error = await dbusError {
          _ = try await caller.call(
            destination: callee.uniqueName, path: "/x", interface: "org.example.I", member: "Foo")
        }
        #expect(
          error
            == .remote(
              name: "org.freedesktop.DBus.Error.UnknownMethod",
              message: "No such method 'Foo' on interface 'org.example.I' at path '/x'"))
        let pong = try await caller.call(
          destination: callee.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        #expect(pong.isEmpty)
      }
    }

    @Test func signalsFromAnotherConnectionArrive() async throws {
      try await withPrivateBus { bus in
        let listener = try await DBusConnection.connect(to: bus.address)
        let emitter = try await DBusConnection.connect(to: bus.address)
        let rule = DBusMatchRule(
          interface: "org.example.Settings", member: "Changed", path: "/org/example",
          arguments: [0: "org.example.appearance"])
        let signals = try await listener.signals(matching: rule)
        // Neither of these matches: another member, another arg0.
        try emitter.emitSignal(
          path: "/org/example", interface: "org.example.Settings", member: "Other",
          arguments: ["org.example.appearance"])
        try emitter.emitSignal(
          path: "/org/example", interface: "org.example.Settings", member: "Changed",
          arguments: ["org.example.other", "k", .variant(.uint32(0))])
        try emitter.emitSignal(
          path: "/org/example", interface: "org.example.Settings", member: "Changed",
          arguments: ["org.example.appearance", "color-scheme", .variant(.uint32(1))])
        let signal = try await withTimeout(5) {
          var iterator = signals.makeAsyncIterator()
          return try await iterator.next()
        }
        #expect(signal?.sender == emitter.uniqueName)
        #expect(signal?.member == "Changed")
        #expect(signal?.body == ["org.example.appearance", "color-scheme", .variant(.uint32(1))])
      }
    }

    /// Signals that pile up in the stream are read on another thread than the one that decoded
    /// them; under the thread sanitizer this checks that the hand-off is ordered.
    @Test func aBurstOfSignalsWithVariantsIsReadWhole() async throws {
      try await withPrivateBus { bus in
        let listener = try await DBusConnection.connect(to: bus.address)
        let emitter = try await DBusConnection.connect(to: bus.address)
        let signals = try await listener.signals(matching: DBusMatchRule(interface: "org.example.Burst"))
        let count = 200
        for index in 0..<count {
          try emitter.emitSignal(
            path: "/org/example", interface: "org.example.Burst", member: "Changed",
            arguments: [.string("k\(index)"), .variant(.variant(.uint32(UInt32(index))))])
        }
        let read = try await withTimeout(10) {
          var values: [UInt32] = []
          for try await signal in signals {
            if case .uint32(let value) = signal.body[1].unwrappingVariants { values.append(value) }
            if values.count == count { break }
          }
          return values
        }
        #expect(read == (0..<count).map(UInt32.init))
      }
    }

    @Test func addMatchAndRemoveMatchTalkToTheBus() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: bus.address)
        let rule = DBusMatchRule(interface: "org.example.I", member: "S")
        try await connection.addMatch(rule)
        try await connection.removeMatch(rule)
        let error = await dbusError { try await connection.removeMatch(rule) }
        #expect(error?.remoteName == "org.freedesktop.DBus.Error.MatchRuleNotFound")
        let invalid = await dbusError { try await connection.addMatch(DBusMatchRule(member: "not-valid")) }
        #expect(invalid == .invalidValue("member name \"not-valid\" must be [A-Za-z_][A-Za-z0-9_]*"))
      }
    }

    @Test func aCallToANameThatNeverAnswersTimesOut() async throws {
      try await withPrivateBus { bus in
        let service = try await silentService(bus.address, name: "org.example.Silent")
        let connection = try await DBusConnection.connect(to: bus.address)
        let start = ContinuousClock.now
        // A plain sleep of the same length, started alongside, is resumed by the same busy thread
        // pool: the call must end about when it does, however late both are woken.
        async let slept: Duration = {
          try? await Task.sleep(for: .milliseconds(300))
          return start.duration(to: .now)
        }()
        let error = await dbusError {
          _ = try await connection.call(
            destination: "org.example.Silent", path: "/", interface: "org.example.I", member: "Hang",
            timeout: .milliseconds(300))
        }
        let elapsed = start.duration(to: .now)
        let sleep = await slept
        #expect(error == .timedOut(operation: "call org.example.I.Hang"))
        #expect(error?.description == "D-Bus call org.example.I.Hang timed out")
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < sleep + .seconds(5), "the call ended \(elapsed), the sleep \(sleep)")
        // The connection is still usable afterwards.
        _ = try await connection.call(
          destination: busName, path: busPath, interface: busName, member: "GetId")
        service.close()
      }
    }

    @Test func cancellingACallEndsItAtOnce() async throws {
      try await withPrivateBus { bus in
        let service = try await silentService(bus.address, name: "org.example.Silent")
        let connection = try await DBusConnection.connect(to: bus.address)
        let task = Task {
          try await connection.call(
            destination: "org.example.Silent", path: "/", interface: "org.example.I", member: "Hang",
            timeout: .seconds(30))
        }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = try await withTimeout(3) { await task.result }
        #expect(throws: CancellationError.self) { try result.get() }
        service.close()
      }
    }

    @Test func losingTheBusFailsPendingCallsAndSignalStreams() async throws {
      let bus = try PrivateBus()
      defer { bus.stop() }
      let service = try await silentService(bus.address, name: "org.example.Silent")
      let connection = try await DBusConnection.connect(to: bus.address)
      let signals = try await connection.signals(matching: DBusMatchRule(interface: "org.example.I"))
      let call = Task {
        try await connection.call(
          destination: "org.example.Silent", path: "/", interface: "org.example.I", member: "Hang",
          timeout: .seconds(30))
      }
      try await Task.sleep(for: .milliseconds(200))
      bus.crash()
      let callResult = try await withTimeout(5) { await call.result }
      #expect(throws: DBusError.disconnected(reason: "the bus closed the connection")) {
        try callResult.get()
      }
      let streamError = try await withTimeout(5) { () -> DBusError? in
        do {
          for try await _ in signals {}
          return nil
        } catch let error as DBusError {
          return error
        }
      }
      #expect(streamError == .disconnected(reason: "the bus closed the connection"))
      #expect(!connection.isConnected)
      let later = await dbusError {
        _ = try await connection.call(
          destination: busName, path: busPath, interface: busName, member: "GetId")
      }
      #expect(later == .disconnected(reason: "the bus closed the connection"))
      _ = service
    }

    @Test func closingIsCleanAndIdempotent() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: bus.address)
        let signals = try await connection.signals(matching: DBusMatchRule(interface: "org.example.I"))
        connection.close()
        connection.close()
        #expect(!connection.isConnected)
        let ended = try await withTimeout(5) { () -> Bool in
          for try await _ in signals {}
          return true
        }
        #expect(ended)
        let error = await dbusError {
          _ = try await connection.call(
            destination: busName, path: busPath, interface: busName, member: "GetId")
        }
        #expect(error == .disconnected(reason: "the connection was closed"))
        #expect(error?.description == "D-Bus connection lost: the connection was closed")
        let lateStream = await dbusError { _ = try await connection.signals(matching: DBusMatchRule()) }
        #expect(lateStream == .disconnected(reason: "the connection was closed"))
      }
    }

    @Test func abstractAddressesWork() async throws {
      let name = "/tmp/dmk-abstract-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      try await withPrivateBus(listen: "unix:abstract=\(name)") { bus in
        #expect(bus.address.hasPrefix("unix:abstract="))
        let connection = try await DBusConnection.connect(to: "unix:abstract=\(name)")
        #expect(connection.uniqueName.hasPrefix(":"))
      }
    }

    @Test func laterAddressesAreTriedWhenEarlierOnesFail() async throws {
      try await withPrivateBus { bus in
        let connection = try await DBusConnection.connect(to: "unix:path=/nonexistent/dmk/bus;" + bus.address)
        #expect(connection.isConnected)
      }
    }

    /// An address list of thousands of entries, none of which answers, gives an error of a few
    /// lines' length that names the first failures and counts the rest.
    @Test func manyFailedAddressesGiveAShortError() async throws {
      let address = (0..<4_000).map { "unix:path=/nonexistent/dmk/\($0)" }.joined(separator: ";")
      let error = try #require(await dbusError { _ = try await DBusConnection.connect(to: address) })
      #expect(error.description.utf8.count < 2_000, "\(error.description.utf8.count) bytes")
      #expect(error.description.contains("\"unix:path=/nonexistent/dmk/0\": no such socket"))
      #expect(error.description.hasSuffix("; and 3996 more"), "\(error.description.suffix(80))")
    }

    @Test func refusedConnectionsGiveAClearError() async throws {
      let name = "/tmp/dmk-nobody-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      let refused = await dbusError { _ = try await DBusConnection.connect(to: "unix:abstract=\(name)") }
      #expect(
        refused
          == .connectionFailed(
            address: "unix:abstract=\(name)", reason: "connection refused (nothing is listening there)"))
      #expect(
        refused?.description
          == "cannot connect to D-Bus at \"unix:abstract=\(name)\": connection refused (nothing is listening there)"
      )
      let missing = await dbusError {
        _ = try await DBusConnection.connect(to: "unix:path=/nonexistent/dmk/bus")
      }
      #expect(
        missing == .connectionFailed(address: "unix:path=/nonexistent/dmk/bus", reason: "no such socket"))
      let both = await dbusError {
        _ = try await DBusConnection.connect(to: "unix:path=/nonexistent/a;tcp:host=localhost,port=1")
      }
      #expect(both?.description.contains("transport \"tcp\" is not supported") == true)
      let invalid = await dbusError { _ = try await DBusConnection.connect(to: "nonsense") }
      #expect(invalid == .invalidAddress(address: "nonsense", reason: "it has no \"transport:\" prefix"))
    }

    @Test func aServerThatNeverAnswersAuthenticationTimesOut() async throws {
      let path = "/tmp/dmk-silent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      let listener = try SilentListener(path: path)
      defer { listener.close() }
      // The blocking initializer, timed on this thread: what `connect(to:)` runs on a thread of its
      // own, without the wait for a free task thread that a loaded test run adds on top.
      let start = ContinuousClock.now
      var error: DBusError?
      do {
        _ = try DBusConnection(address: "unix:path=\(path)", timeout: .milliseconds(300))
      } catch let caught as DBusError {
        error = caught
      }
      #expect(error == .timedOut(operation: "authentication"))
      // Bounded by the timeout, with room for a loaded machine (the sanitizer runs are slow).
      #expect(start.duration(to: .now) < .seconds(5))
    }
  }

  /// What a broken or hostile server does to the client: errors, never a crash or a hang.
  @Suite struct DBusHostileServerTests {
    private func getID(_ connection: DBusConnection) async throws -> [DBusValue] {
      try await connection.call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "GetId", timeout: .seconds(30))
    }

    @Test func rejectedAuthenticationIsReported() async throws {
      let bus = try FakeBus { peer in
        _ = try peer.readLine()
        peer.write("REJECTED EXTERNAL DBUS_COOKIE_SHA1\r\n")
        _ = try? peer.readLine()
      }
      defer { bus.close() }
      await #expect(
        throws: DBusError.authenticationFailed(
          reason: "the bus rejected EXTERNAL for uid \(getuid()); it offers: EXTERNAL DBUS_COOKIE_SHA1")
      ) {
        _ = try await DBusConnection.connect(to: bus.address)
      }
    }

    @Test func anOverlongAuthenticationLineIsRefused() async throws {
      let bus = try FakeBus { peer in
        _ = try peer.readLine()
        peer.write([UInt8](repeating: UInt8(ascii: "O"), count: 20_000))
        _ = try? peer.readLine()
      }
      defer { bus.close() }
      await #expect(
        throws: DBusError.authenticationFailed(reason: "the server's line is longer than 16384 bytes")
      ) {
        _ = try await DBusConnection.connect(to: bus.address)
      }
    }

    @Test func aMalformedReplyFailsItsCallWithItsOffsetAndTheConnectionStays() async throws {
      // Its length is known, so the stream stays in step: only the call fails.
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        let call = try peer.readMessage()
        var bytes = try peer.reply(to: call, body: [.bool(true)])
        bytes[bytes.count - 4] = 2
        peer.write(bytes)
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      #expect(connection.uniqueName == ":1.1")
      let error = await #expect(throws: DBusError.self) { try await getID(connection) }
      guard case .malformedMessage(let offset, let reason) = error else {
        Issue.record("expected a malformed-message error, got \(String(describing: error))")
        return
      }
      #expect(reason == "boolean is 2, not 0 or 1")
      #expect(offset > 16)
      #expect(connection.isConnected)
    }

    @Test func messagesOfUnknownTypeAreIgnored() async throws {
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        let call = try peer.readMessage()
        var unknown = try peer.reply(to: call, body: ["ignored"])
        unknown[1] = 9
        peer.write(unknown)
        peer.write(try peer.reply(to: call, body: ["0123"]))
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      #expect(try await getID(connection) == ["0123"])
    }

    @Test func aConnectionDroppedMidMessageFailsThePendingCall() async throws {
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        let call = try peer.readMessage()
        let reply = try peer.reply(to: call, body: ["0123"])
        peer.write(Array(reply.prefix(20)))
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      // The peer's close reaches the client as an end of stream or as a reset, whichever comes
      // first; both end the call as a lost connection.
      let error = await dbusError { _ = try await getID(connection) }
      guard case .disconnected = error else {
        Issue.record("expected a lost connection, got \(String(describing: error))")
        return
      }
    }

    @Test func anAbsurdLengthFromTheServerIsRefusedBeforeReading() async throws {
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        _ = try peer.readMessage()
        // A header announcing a 4 GiB body.
        peer.write([0x6C, 2, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0])
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      await #expect(
        throws: DBusError.malformedMessage(
          offset: 4, reason: "body length 4294967295 is over the limit of 134217728 bytes")
      ) {
        try await getID(connection)
      }
    }
  }
#endif
