/// The theme names the process has seen, each with a number.
enum ThemeNames {
  private struct State {
    var names: [String] = []
    var ids: [String: UInt32] = [:]
  }

  private static let state = Locked(State())

  static func id(of name: String) -> UInt32 {
    state.withLock { state in
      if let id = state.ids[name] { return id }
      let id = UInt32(state.names.count)
      state.names.append(name)
      state.ids[name] = id
      return id
    }
  }

  static func name(of id: UInt32) -> String {
    state.withLock { $0.names[Int(id)] }
  }
}
