import DarkModeKit
import DarkModeKitText
import Foundation

/// One reading of design tokens in progress: its options, the warnings it has noticed (each once:
/// a token read for several columns warns once), and the files its document names, each read once.
final class TokenReading: @unchecked Sendable {
  /// The reading in progress on this task or thread.
  @TaskLocal static var current: TokenReading?

  /// At most this many warnings (and errors read past) are kept by default: `lint` keeps as many
  /// as it lists.
  static let limit = 1_000

  /// The most warnings, and the most errors read past, kept; the rest are counted.
  let limit: Int

  let options: DMDesignTokensOptions
  /// The document read, when it was read from a file: files it names are read from its folder.
  let document: URL?

  /// Things noticed once each, `limit` of them kept, the rest counted: the first noticed, or with
  /// `precedes`, the first in that order (those of one place in the order noticed), kept sorted.
  private struct Noticed<Element: Hashable> {
    let limit: Int
    let precedes: ((Element, Element) -> Bool)?
    private var seen: Set<Element> = []
    private(set) var list: [Element] = []
    private(set) var leftOut = 0

    init(limit: Int, precedes: ((Element, Element) -> Bool)? = nil) {
      self.limit = limit
      self.precedes = precedes
    }

    mutating func insert(_ element: Element) {
      guard seen.insert(element).inserted else { return }
      guard let precedes else {
        if list.count < limit { list.append(element) } else { leftOut += 1 }
        return
      }
      // Most come in order: one past the last kept is counted at once.
      guard let last = list.last, precedes(element, last) else {
        if list.count < limit { list.append(element) } else { leftOut += 1 }
        return
      }
      // After those it does not precede, so that those of one place keep the order noticed.
      var low = 0
      var high = list.count
      while low < high {
        let middle = (low + high) / 2
        if precedes(element, list[middle]) { high = middle } else { low = middle + 1 }
      }
      list.insert(element, at: low)
      if list.count > limit {
        list.removeLast()
        leftOut += 1
      }
    }
  }

  /// Whether `one` comes before `other` in a listing of problems: the document's own first (no
  /// path, or `document`'s), then each file's, each by its places.
  static func precedes(_ one: DMDesignTokensError, _ other: DMDesignTokensError, document: String?) -> Bool {
    let (first, second) = (one.path ?? document, other.path ?? document)
    if (first == document) != (second == document) { return first == document }
    if first != second { return (first ?? "") < (second ?? "") }
    return (one.line, one.column) < (other.line, other.column)
  }

  private let lock = NSLock()
  private var noticedWarnings: Noticed<DMDesignTokensWarning>
  /// How many warnings were left out past `limit`.
  var leftOut: Int { lock.withLock { noticedWarnings.leftOut } }
  /// The files read, in the order first named; a place's `file` is its index plus one.
  private var files: [(path: String, root: JSONNode?)] = []
  private var fileIndexes: [String: Int] = [:]
  private var bytesRead = 0

  /// Whether the reading goes on past a problem in one token, keeping it and leaving the token
  /// out, as `lint` reads: every problem is found, not only the first.
  let readsPastErrors: Bool
  private var noticedErrors: Noticed<DMDesignTokensError>
  /// How many errors were left out past `limit`.
  var errorsLeftOut: Int { lock.withLock { noticedErrors.leftOut } }

  init(
    options: DMDesignTokensOptions, document: URL?, readsPastErrors: Bool = false,
    limit: Int = TokenReading.limit
  ) {
    self.options = options
    self.document = document
    self.readsPastErrors = readsPastErrors
    self.limit = max(limit, 0)
    noticedWarnings = Noticed(limit: self.limit)
    noticedErrors = Noticed(limit: self.limit) { [path = document?.path] in
      TokenReading.precedes($0, $1, document: path)
    }
  }

  /// The errors the reading went on past, each once: the first `limit` by their places.
  var errors: [DMDesignTokensError] { lock.withLock { noticedErrors.list } }

  /// Goes on past `error`, a problem in one token, when the reading in progress reads past errors:
  /// the error is kept and the caller leaves the token out. Otherwise the error is thrown.
  static func readOn(past error: DMDesignTokensError) throws(DMDesignTokensError) {
    guard let current, current.readsPastErrors else { throw error }
    current.lock.withLock { current.noticedErrors.insert(error) }
  }

  var warnings: [DMDesignTokensWarning] { lock.withLock { noticedWarnings.list } }

  /// The colours written in a space wider than sRGB, by where each is written: one place holds one
  /// colour, whichever column reads it.
  private var origins: [TextPlace: DMColorOrigin] = [:]

  /// Keeps the colour written at `place`, in a space wider than sRGB.
  static func record(_ origin: DMColorOrigin, at place: TextPlace) {
    guard let current else { return }
    current.lock.withLock { current.origins[place] = origin }
  }

  /// The colour written at a place, if it came from a space wider than sRGB; the place is found
  /// only when some colour did.
  static func origin(at place: () -> TextPlace) -> DMColorOrigin? {
    guard let current, current.lock.withLock({ !current.origins.isEmpty }) else { return nil }
    let place = place()
    return current.lock.withLock { current.origins[place] }
  }

  /// Notes a warning (or a note) for the reading in progress.
  static func note(
    _ place: TextPlace, _ path: [String], _ message: String, kind: DMDesignTokensWarning.Kind = .warning
  ) {
    guard let current else { return }
    let warning = DMDesignTokensWarning(TokenTree.fail(place, path, message), kind: kind)
    current.lock.withLock { current.noticedWarnings.insert(warning) }
  }

  /// Leaves a token (or a group's tokens) out of the table: a warning, or the error `message` when
  /// the reading in progress is strict.
  static func leaveOut(_ place: TextPlace, _ path: [String], _ message: String) throws(DMDesignTokensError) {
    if current?.options.isStrict == true { throw TokenTree.fail(place, path, message) }
    note(place, path, message)
  }

  // MARK: Files a document names

  /// The path of the file a place is in, as the document named it; `nil` for the document itself.
  static func path(ofFile index: Int) -> String? {
    guard index > 0, let current else { return nil }
    return current.lock.withLock {
      current.files.indices.contains(index - 1) ? current.files[index - 1].path : nil
    }
  }

  /// The document a place in a file named by the document is in, for the `$ref` pointers of its
  /// tokens; `nil` for the document itself.
  static func root(ofFile index: Int) -> JSONNode? {
    guard index > 0, let current else { return nil }
    return current.lock.withLock {
      current.files.indices.contains(index - 1) ? current.files[index - 1].root : nil
    }
  }

  /// The path of a file the document names, as a user would write it: the document's path as it
  /// was given, with the reference in place of its name (`tokens/./light.json` as
  /// `tokens/light.json`).
  private static func shown(_ file: URL, reference: String, isGiven: Bool) -> String {
    guard !isGiven, !reference.hasPrefix("/"), let document = current?.document else {
      return file.relativePath
    }
    var path = (document.relativePath as NSString).deletingLastPathComponent
    for part in reference.split(separator: "/") where part != "." {
      if part == "..", !path.isEmpty, !path.hasSuffix(".."), path != "/" {
        path = (path as NSString).deletingLastPathComponent
      } else {
        path = (path as NSString).appendingPathComponent(String(part))
      }
    }
    return path
  }

  /// The most files one reading may read.
  static let maximumFiles = 1_000

  /// The JSON of the file `reference` names, relative to the folder of the document read (read
  /// once however often it is named): only a regular file, inside that folder unless the options
  /// allow others, each within the document's size limit and all together within the options'.
  /// A file the user gave (`isGiven`, ``DMDesignTokensOptions/tokenFiles``) is read wherever it
  /// is. `place` and `path` are those of the reference, for errors.
  static func file(named reference: String, at place: TextPlace, path: [String], isGiven: Bool = false)
    throws(DMDesignTokensError) -> JSONNode
  {
    func fail(_ message: String) -> DMDesignTokensError {
      isGiven
        ? DMDesignTokensError(line: 0, column: 0, tokenPath: nil, message: message, path: reference)
        : TokenTree.fail(place, path, "$ref \(ShownText.quoted(reference)): \(message)")
    }
    guard let current else { throw fail("files are read only while reading tokens") }
    let named: URL
    if isGiven {
      named = URL(fileURLWithPath: reference)
    } else {
      guard let document = current.document else {
        throw fail("tokens read from text cannot name files; read them from their file")
      }
      if reference.contains("://") { throw fail("only files are read, by a path relative to this document") }
      let folder = document.deletingLastPathComponent()
      named =
        reference.hasPrefix("/") ? URL(fileURLWithPath: reference) : folder.appendingPathComponent(reference)
    }
    guard let resolved = realpath(named.path, nil) else {
      throw fail(
        "cannot read \(ShownText.quoted(named.standardized.path)): \(String(cString: strerror(errno)))")
    }
    let realPath = String(cString: resolved)
    free(resolved)
    if let root = current.lock.withLock({ current.fileIndexes[realPath].flatMap { current.files[$0].root } })
    {
      return root
    }
    if let document = current.document, let documentReal = realpath(document.path, nil) {
      defer { free(documentReal) }
      let documentPath = String(cString: documentReal)
      if realPath == documentPath {
        throw fail("names this document itself, which would go round in a circle")
      }
      // The folder the document was named in (for a link to a document, the link's), as files
      // are found in it; with its links followed, as the file's path is.
      let given = document.deletingLastPathComponent().path
      let folder =
        realpath(given, nil).map { pointer in
          defer { free(pointer) }
          return String(cString: pointer)
        } ?? given
      let inside = realPath.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
      if !isGiven, !inside, !current.options.readsFilesOutsideFolder {
        throw fail(
          "the file is outside the document's folder \(ShownText.quoted(folder)); files outside it are read "
            + "only when allowed (dmkit: --allow-outside)")
      }
    }
    let bytes: [UInt8]
    do {
      bytes = try BoundedFile.contents(ofPath: realPath, limit: current.options.maximumFileSize)
    } catch {
      throw fail("cannot read the file: \(error.reason)")
    }
    let problem: String? = current.lock.withLock {
      guard current.files.count < maximumFiles else {
        return "the document names more than \(maximumFiles) files"
      }
      current.bytesRead += bytes.count
      guard current.bytesRead <= current.options.maximumTotalSize else {
        return
          "the files the document names come to more than \(current.options.maximumTotalSize >> 20) MiB all together"
      }
      return nil
    }
    if let problem { throw fail(problem) }
    let index = current.lock.withLock {
      current.files.append((shown(named, reference: reference, isGiven: isGiven), nil))
      current.fileIndexes[realPath] = current.files.count - 1
      return current.files.count
    }
    let shownPath = shown(named, reference: reference, isGiven: isGiven)
    guard String(validating: bytes, as: UTF8.self) != nil else {
      let (line, column, shown) = DMDesignTokens.firstInvalidUTF8(in: bytes)
      throw DMDesignTokensError(
        line: line, column: column, tokenPath: nil,
        message: "the file is not UTF-8 text: the byte sequence \(shown) is not valid UTF-8", path: shownPath)
    }
    let root: JSONNode
    do {
      root = try JSONReader.read(bytes: bytes, file: index)
    } catch {
      throw DMDesignTokensError(
        line: error.place.line, column: error.place.column, tokenPath: nil, message: error.message,
        path: shownPath)
    }
    current.lock.withLock { current.files[index - 1].root = root }
    return root
  }
}
