package pkg

// Thing is a fixture for the docmap tests.
type Thing struct {
	Name string
	Embedded
}

// Embedded is embedded in Thing.
type Embedded struct{}

// Doer is an interface with a method.
type Doer interface {
	Do() error
}

// Max is a constant.
const Max = 3

var defaultThing = Thing{}

// New returns a Thing.
func New() *Thing { return &Thing{} }

// Run is a method with a pointer receiver.
func (t *Thing) Run() {}

// List is a generic type with a method.
type List[T any] struct{ items []T }

// Len is a method of a generic type.
func (l *List[T]) Len() int { return len(l.items) }
