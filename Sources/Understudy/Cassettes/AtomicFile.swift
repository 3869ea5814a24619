#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file's contents all at once: write a temporary file in the same directory, flush
/// it, and `rename(2)` it over the destination.
///
/// Foundation's `.atomic` option does the same on Linux today (a `.dat.nosync…` file, `fsync`,
/// `rename`), but it resets the file's permissions, leaves its temporary file under a name
/// nobody recognises, and promises nothing about cleanup on Darwin or in later releases. Doing
/// it here keeps one documented behaviour on every platform.
enum AtomicFile {
  /// Writes `data` to `url`; `beforeRename` runs between the flush and the rename so tests can
  /// fail a write at its most delicate moment.
  static func replaceContents(
    of url: URL, with data: Data, beforeRename: () throws -> Void = {}
  ) throws(CassetteError) {
    // Write through a symbolic link rather than replacing the link with a file.
    let destination = url.resolvingSymlinksInPath()
    let directory = destination.deletingLastPathComponent()
    try createDirectory(directory, for: url)
    let temporary = directory.appendingPathComponent(
      ".\(destination.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
    let existingMode =
      (try? FileManager.default.attributesOfItem(atPath: destination.path))?[
        .posixPermissions] as? Int
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      throw failure(
        url, "could not create a temporary file in \(directory.path) (\(systemError()))")
    }
    var isOpen = true
    do throws(CassetteError) {
      if let existingMode, fchmod(descriptor, mode_t(existingMode)) != 0 {
        throw failure(url, "could not keep the file's permissions (\(systemError()))")
      }
      try writeAll(data, to: descriptor, url: url)
      guard fsync(descriptor) == 0 else {
        throw failure(url, "could not flush the data to disk (\(systemError()))")
      }
      isOpen = false
      guard close(descriptor) == 0 else {
        throw failure(url, "could not close the temporary file (\(systemError()))")
      }
      do {
        try beforeRename()
      } catch {
        throw failure(url, "the write was interrupted (\(error))")
      }
      guard rename(temporary.path, destination.path) == 0 else {
        throw failure(url, "could not move the new cassette into place (\(systemError()))")
      }
    } catch {
      if isOpen { close(descriptor) }
      unlink(temporary.path)
      throw error
    }
    syncDirectory(directory)
  }

  /// Creates the folder a cassette at `url` goes in, with its parents.
  static func createDirectory(_ directory: URL, for url: URL) throws(CassetteError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      let reason = FileErrorReason.of(error, besides: directory.path)
      throw failure(url, "could not create the directory \(directory.path) (\(reason))")
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, url: URL) throws(CassetteError) {
    let failed = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return true
        }
        offset += written
      }
      return false
    }
    if failed { throw failure(url, "could not write the data (\(systemError()))") }
  }

  /// Flushes the directory so the rename itself survives a power cut; best effort, because
  /// some file systems refuse to open directories for this.
  private static func syncDirectory(_ directory: URL) {
    let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  private static func systemError() -> String {
    String(cString: strerror(errno))
  }

  private static func failure(_ url: URL, _ problem: String) -> CassetteError {
    CassetteError(
      kind: .writeFailed, file: url.path, problem: problem,
      fix: "Check that the directory is writable and the disk has space; "
        + "any previous cassette at this path is unchanged.")
  }
}
