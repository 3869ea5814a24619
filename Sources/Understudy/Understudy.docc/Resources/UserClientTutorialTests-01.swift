import Testing
import Understudy

@Suite(.stubs)
struct UserClientTutorialTests {
}
