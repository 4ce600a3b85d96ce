import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKitDBus

#if os(Linux)
  import Glibc

  /// What another process on the bus, or the bus itself, can send to hurt a connection: messages
  /// far over the limit, messages nobody asked for, replies that break the format or come late,
  /// and a peer that goes away in the middle of a message. The connection must keep its memory
  /// bounded, fail only what is concerned, and go on.
  @Suite(.enabled(if: PrivateBus.isAvailable)) struct HostilePeerTests {
    private func getID(_ connection: DBusConnection, timeout: Duration = .seconds(30)) async throws
      -> [DBusValue]
    {
      try await connection.call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "GetId", timeout: timeout)
    }

    @Test func aReplyOverTheLimitFailsItsCallAtOnceAndTheConnectionGoesOn() async throws {
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        let first = try peer.readMessage()
        peer.write(try peer.reply(to: first, body: [.bytes([UInt8](repeating: 7, count: 10_000_000))]))
        let second = try peer.readMessage()
        peer.write(try peer.reply(to: second, body: ["0123"]))
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address, maximumMessageLength: 1 << 20)
      #expect(connection.maximumMessageLength == 1 << 20)
      do {
        _ = try await getID(connection)
        Issue.record("a 10 MB reply was accepted over a 1 MiB limit")
      } catch DBusError.messageTooLarge(let length, let limit) {
        #expect(length > 10_000_000 && length < 10_000_200)
        #expect(limit == 1 << 20)
      }
      #expect(try await getID(connection) == ["0123"])
    }

    /// A bus that answers the first call with half a reply and closes the connection.
    private func busThatGoesAwayInTheMiddleOfAReply() throws -> FakeBus {
      try FakeBus { peer in
        try peer.acceptClient()
        let call = try peer.readMessage()
        let reply = try peer.reply(to: call, body: ["0123"])
        peer.write(Array(reply.prefix(reply.count / 2)))
      }
    }

    @Test func aPeerThatGoesAwayInTheMiddleOfAMessageEndsTheConnectionWithTheReason() async throws {
      let bus = try busThatGoesAwayInTheMiddleOfAReply()
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      await #expect(throws: DBusError.disconnected(reason: "the bus closed the connection")) {
        _ = try await getID(connection)
      }
      #expect(!connection.isConnected)
    }

    /// A program that another test starts while a peer is open must not keep the peer's end of the
    /// connection alive: the end of the connection would reach the client only when that program
    /// ends (a browser that another test runs for a minute).
    @Test func aProgramStartedMeanwhileDoesNotKeepAClosedPeerOpen() async throws {
      let bus = try busThatGoesAwayInTheMiddleOfAReply()
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      // The peer's end is open now: it answered Hello and waits for the call.
      let bystander = try ChildProcess("/bin/sleep", ["60"], environment: [:])
      defer { bystander.stop() }
      await #expect(throws: DBusError.disconnected(reason: "the bus closed the connection")) {
        _ = try await getID(connection, timeout: .seconds(20))
      }
    }

    @Test func aReplyThatArrivesAfterItsDeadlineIsATimeout() async throws {
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        let call = try peer.readMessage()
        usleep(400_000)
        peer.write(try peer.reply(to: call, body: ["late"]))
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      await #expect(throws: DBusError.timedOut(operation: "call org.freedesktop.DBus.GetId")) {
        _ = try await getID(connection, timeout: .milliseconds(150))
      }
      #expect(connection.isConnected)
    }

    @Test func aSignalNobodyWantsIsNotReadEvenWhenItBreaksTheFormat() async throws {
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        var signal = try DBusMessage(
          type: .signal, serial: 77, path: "/x", interface: "org.dmkit.Hostile", member: "Bad",
          destination: ":1.1", sender: ":1.9", body: [.bool(true)]
        ).encoded()
        signal[signal.count - 4] = 2  // a boolean of 2
        peer.write(signal)
        let call = try peer.readMessage()
        peer.write(try peer.reply(to: call, body: ["0123"]))
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      #expect(try await getID(connection) == ["0123"])
      #expect(connection.isConnected)
    }

    @Test func aCallWithLongNamesGetsAShortAnswer() async throws {
      let answer = Locked<DBusMessage?>(nil)
      let bus = try FakeBus { peer in
        try peer.acceptClient()
        let path = "/" + Array(repeating: "segment", count: 20_000).joined(separator: "/")
        peer.write(
          try DBusMessage(
            type: .methodCall, serial: 9, path: path, interface: "org.dmkit.Hostile", member: "Flood",
            destination: ":1.1", sender: ":1.9"
          ).encoded())
        // The answer and the client's own call come in either order.
        for _ in 0..<2 {
          let message = try peer.readMessage()
          if message.type == .methodCall {
            peer.write(try peer.reply(to: message, body: ["0123"]))
          } else {
            answer.withLock { $0 = message }
          }
        }
        _ = try? peer.readBytes(1)
      }
      defer { bus.close() }
      let connection = try await DBusConnection.connect(to: bus.address)
      #expect(try await getID(connection) == ["0123"])
      // The fake bus may read the answer after it answered the call.
      for _ in 0..<500 where answer.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
      let reply = try #require(answer.withLock { $0 })
      #expect(reply.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
      let text = try #require(reply.body.first?.stringValue)
      #expect(
        text.hasPrefix("No such method 'Flood' on interface 'org.dmkit.Hostile' at path '/segment/segment"))
      #expect(text.count < 200, "\(text.count) characters")
    }

    /// A call and a signal of 60 MiB and 30 MiB sent to a connection's unique name through a real
    /// bus daemon, from another process: resident memory must not grow by more than a few times
    /// the 4 MiB limit, the call is answered, and the connection keeps working. Measured in a
    /// child process of its own, so that no other test's memory counts.
    @Test(.enabled(if: DesktopSession.testPortalMissing == nil))
    func largeMessagesFromAnotherProcessCostLittleMemoryAndAreAnswered() async {
      let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        // A failure stops the bus before the process ends: the daemon holds this process's output,
        // and the test would wait for it.
        let bus = try PrivateBus()
        let problem = await Self.sendLargeMessages(through: bus)
        bus.stop()
        if let problem {
          print(problem)
          exit(1)
        }
      }
      print(String(decoding: result?.standardOutputContent ?? [], as: UTF8.self), terminator: "")
    }
  }

  extension HostilePeerTests {
    /// Sends a 60 MiB call and a 30 MiB signal from another process to a connection on `bus`, and
    /// returns what went wrong, if anything.
    static func sendLargeMessages(through bus: PrivateBus) async -> String? {
      do {
        let victim = try await DBusConnection.connect(to: bus.address)
        Memory.resetPeak()
        let before = Memory.resident()
        for (kind, size) in [("call", 60 << 20), ("signal", 30 << 20)] {
          let peer = try ChildProcess(
            "/usr/bin/python3", [TestFixtures.hostilePeer, victim.uniqueName, kind, "\(size)"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], capturesOutput: true)
          guard peer.readLine(seconds: 60) == "sent" else { return "the peer did not send its \(kind)" }
          if kind == "call" {
            let answer = peer.readLine(seconds: 60)
            guard answer == "answered org.freedesktop.DBus.Error.UnknownMethod" else {
              return "the call got \(answer ?? "no answer")"
            }
          }
          guard peer.wait(seconds: 60) == 0 else { return "the peer failed: \(peer.errorOutput)" }
        }
        let reply = try await victim.call(
          destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
          interface: "org.freedesktop.DBus", member: "GetId")
        guard reply.count == 1 else { return "the connection stopped working" }
        let growth = Memory.peak() - before
        print("peak resident growth over 90 MiB of messages: \(growth >> 10) KiB")
        // A sanitizer keeps freed memory in quarantine for a while; its builds check the rest.
        guard Sanitizer.current != nil || growth < 48 << 20 else {
          return "memory grew by \(growth >> 20) MiB"
        }
        return nil
      } catch {
        return "\(error)"
      }
    }
  }

  /// The process's memory, from /proc/self/status.
  enum Memory {
    static func resident() -> Int { field("VmRSS:") }
    static func peak() -> Int { field("VmHWM:") }
    /// Makes the peak the present resident size.
    static func resetPeak() {
      try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func field(_ name: String) -> Int {
      let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
      return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
  }
#endif
