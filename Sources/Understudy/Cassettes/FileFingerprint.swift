/// What identifies one version of a file without reading it: every cassette write renames a new
/// file into place, so a write by anyone else changes the inode, and usually size and date too.
struct FileFingerprint: Hashable, Sendable {
  let inode: UInt64
  let size: UInt64
  let modified: Date?

  /// The fingerprint of the file at `url` now, or `nil` when there is none.
  init?(of url: URL) {
    // The file a write through a symbolic link replaces, not the link.
    let path = url.resolvingSymlinksInPath().path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      return nil
    }
    inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
    modified = attributes[.modificationDate] as? Date
  }
}
