import Foundation

/// Where a cassette holds a placeholder, recording replaced a credential, and a live request's
/// value in that place is one too: the token an invite link's path held, which only a later
/// request named (`{"password": …}`), comes back as another token in the same segment.
enum PlaceholderPlaces {
  /// The values of `live`'s path segments and query items that stand where a recorded request
  /// to the same host, with as many segments, holds a placeholder.
  static func liveValues(of live: InterceptedRequest, at recorded: [InterceptedRequest])
    -> Set<String>
  {
    let liveSegments = live.path.split(separator: "/", omittingEmptySubsequences: false)
    let liveItems = live.queryItems
    var found = Set<String>()
    for entry in recorded where entry.host == live.host {
      let segments = entry.path.split(separator: "/", omittingEmptySubsequences: false)
      if segments.count == liveSegments.count {
        for (kept, sent) in zip(segments, liveSegments)
        where kept != sent && RedactionPlaceholder.isPresent(in: String(kept)) {
          found.insert(String(sent))
        }
      }
      for item in entry.queryItems where RedactionPlaceholder.isPresent(in: item.value ?? "") {
        for sent in liveItems where sent.name == item.name && sent.value != item.value {
          if let value = sent.value { found.insert(value) }
        }
      }
    }
    return found.filter { $0.count >= Redaction.minimumEchoLength }
  }
}
