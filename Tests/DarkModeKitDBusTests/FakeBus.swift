import Foundation
import Testing

@testable import DarkModeKitDBus

// Unix sockets, dbus-daemon and posix_spawn as used here exist on Linux; elsewhere these tests
// are not built.
#if os(Linux)
  import Glibc

  /// A scripted bus on a Unix socket: it accepts one client on its own thread and runs `script`
  /// with the client's descriptor, to show what a broken or hostile server does to the client.
  final class FakeBus: Sendable {
    let path: String
    private let listenFD: Int32

    init(script: @escaping @Sendable (FakeBus.Peer) throws -> Void) throws {
      let path = "/tmp/dmk-fake-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      self.path = path
      let fd = try listeningSocket(at: path, backlog: 1)
      listenFD = fd
      Thread {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        try? script(Peer(fd: client))
        _ = Glibc.close(client)
      }.start()
    }

    var address: String { "unix:path=\(path)" }

    func close() {
      shutdown(listenFD, Int32(SHUT_RDWR))
      _ = Glibc.close(listenFD)
      unlink(path)
    }

    /// The server's side of the connection, with blocking reads bounded to 600 seconds: generous,
    /// because the client's test task may wait long for one of the concurrency pool's few threads
    /// while other tests hold them (a GTK test building its programs, a long synchronous test
    /// under the thread sanitizer on a loaded machine).
    struct Peer {
      let fd: Int32

      func readLine() throws -> String {
        var bytes: [UInt8] = []
        while true {
          let byte = try readBytes(1)[0]
          if byte == 0 && bytes.isEmpty { continue }  // the credentials byte before AUTH
          if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
          if byte != UInt8(ascii: "\r") { bytes.append(byte) }
        }
      }

      func readBytes(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
          var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
          guard poll(&entry, 1, 600_000) > 0 else { throw BusError("fake bus: read timed out") }
          var byte: UInt8 = 0
          guard read(fd, &byte, 1) == 1 else { throw BusError("fake bus: client went away") }
          bytes.append(byte)
        }
        return bytes
      }

      func readMessage() throws -> DBusMessage {
        let header = try readBytes(16)
        let length = try #require(try DBusMessage.frameLength(header))
        return try DBusMessage(decoding: header + readBytes(length - 16))
      }

      func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      }

      func write(_ text: String) { write(Array(text.utf8)) }

      /// Accepts AUTH and answers Hello with `:1.1`.
      func acceptClient() throws {
        _ = try readLine()  // AUTH EXTERNAL …
        write("OK 0123456789abcdef0123456789abcdef\r\n")
        _ = try readLine()  // BEGIN
        let hello = try readMessage()
        write(try reply(to: hello, body: [":1.1"]))
      }

      func reply(to call: DBusMessage, body: [DBusValue]) throws -> [UInt8] {
        try DBusMessage(
          type: .methodReturn, serial: 1000 + call.serial, replySerial: call.serial, destination: ":1.1",
          sender: "org.freedesktop.DBus", body: body
        ).encoded()
      }
    }
  }
#endif
