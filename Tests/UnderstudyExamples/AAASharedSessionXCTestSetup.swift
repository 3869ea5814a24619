import Understudy
import XCTest

/// Registers Understudy for `URLSession.shared` before any XCTest example creates a session.
///
/// XCTest runs the modules of a package in name order and the classes of a module in name order,
/// so this class runs before every other XCTest of the package. On Linux the shared session can
/// only be intercepted when registration comes before the process's first `URLSession`; the
/// shared-session XCTests of `UnderstudyXCTests` rely on that.
final class AAASharedSessionXCTestSetup: XCTestCase {
  override class func setUp() {
    super.setUp()
    SharedSessionInterception.install()
  }

  func testSharedSessionInterceptionIsActive() {
    XCTAssertEqual(SharedSessionInterception.install(), .active)
  }
}
