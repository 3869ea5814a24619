#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on a cassette path, held while a recorder reads what is on disk and writes
/// its merge, so two recorders (parallel tests in one process, or two processes) never replace
/// each other's entries.
///
/// The lock is `flock(2)` on a sidecar file, `.<cassette>.lock` beside the cassette: the cassette
/// itself cannot carry it, because every write replaces the cassette's inode by a rename. `flock`
/// locks belong to an open file description, so two opens in one process exclude each other as
/// two processes do, on Linux and on Darwin. The sidecar is removed on release; a holder that
/// finds its locked file no longer at the path (a previous holder removed it) starts over, so
/// removal never lets two holders in at once.
enum CassetteFileLock {
  /// How long a recorder waits for another to finish writing before it gives up and says so.
  static let patience: TimeInterval = 30

  /// The sidecar lock file of the cassette at `url` (after resolving symbolic links).
  static func lockFile(for url: URL) -> URL {
    let destination = url.resolvingSymlinksInPath()
    return destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).lock")
  }

  /// Runs `body` holding the lock of the cassette at `url`.
  static func withLock<Result>(
    on url: URL, patience: TimeInterval = patience,
    _ body: () throws(CassetteError) -> Result
  ) throws(CassetteError) -> Result {
    let lockFile = lockFile(for: url)
    let descriptor = try acquire(lockFile, for: url, patience: patience)
    defer {
      // Remove before unlocking: a waiter that then gets the old file sees it is gone and retries.
      unlink(lockFile.path)
      close(descriptor)
    }
    return try body()
  }

  private static func acquire(_ lockFile: URL, for url: URL, patience: TimeInterval)
    throws(CassetteError) -> Int32
  {
    try AtomicFile.createDirectory(lockFile.deletingLastPathComponent(), for: url)
    let deadline = Date().addingTimeInterval(patience)
    while true {
      let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw failure(url, "could not open the lock file \(lockFile.path) (\(systemError()))")
      }
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        if isStillAtPath(descriptor, lockFile) { return descriptor }
        close(descriptor)
        continue
      }
      let reason = errno
      close(descriptor)
      guard reason == EWOULDBLOCK || reason == EINTR else {
        throw failure(url, "could not lock \(lockFile.path) (\(String(cString: strerror(reason))))")
      }
      guard Date() < deadline else {
        throw CassetteError(
          kind: .writeFailed, file: url.path,
          problem: "another recorder held the lock \(lockFile.path) for more than "
            + "\(Int(patience)) s, so this test's new entries were not written",
          fix: "Find the test or process still recording this cassette (a test stuck in its "
            + "body keeps it), let it finish, and record again; the cassette on disk is "
            + "unchanged.")
      }
      usleep(2_000)
    }
  }

  /// Whether the locked descriptor is still the file at the path (a releasing holder removes it).
  private static func isStillAtPath(_ descriptor: Int32, _ lockFile: URL) -> Bool {
    var held = stat()
    var atPath = stat()
    guard fstat(descriptor, &held) == 0, stat(lockFile.path, &atPath) == 0 else { return false }
    return held.st_ino == atPath.st_ino && held.st_dev == atPath.st_dev
  }

  private static func systemError() -> String {
    String(cString: strerror(errno))
  }

  private static func failure(_ url: URL, _ problem: String) -> CassetteError {
    CassetteError(
      kind: .writeFailed, file: url.path, problem: problem,
      fix: "Check that the directory is writable; the cassette on disk is unchanged.")
  }
}
