package status

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
	"github.com/crdlab/crdlab/machinery/clock"
)

// crdBuilder builds test CRDs, as upstream's naming_controller_test.go.
type crdBuilder struct {
	crd *apiextensionsv1.CustomResourceDefinition
}

// newCRD starts a CRD named "<plural>.<group>" whose spec names hold just
// that plural.
func newCRD(name string) *crdBuilder {
	plural, group, _ := cut(name)
	return &crdBuilder{crd: &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: metav1.UID("uid-" + name)},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural},
		},
	}}
}

func cut(name string) (plural, group string, ok bool) {
	for i := range name {
		if name[i] == '.' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}

func (b *crdBuilder) SpecNames(plural, singular, kind, listKind string, shortNames ...string) *crdBuilder {
	b.crd.Spec.Names = names(plural, singular, kind, listKind, shortNames...)
	return b
}

func (b *crdBuilder) StatusNames(plural, singular, kind, listKind string, shortNames ...string) *crdBuilder {
	b.crd.Status.AcceptedNames = names(plural, singular, kind, listKind, shortNames...)
	return b
}

func (b *crdBuilder) Condition(c apiextensionsv1.CustomResourceDefinitionCondition) *crdBuilder {
	b.crd.Status.Conditions = append(b.crd.Status.Conditions, c)
	return b
}

func (b *crdBuilder) New() *apiextensionsv1.CustomResourceDefinition { return b.crd }

func names(plural, singular, kind, listKind string, shortNames ...string) apiextensionsv1.CustomResourceDefinitionNames {
	return apiextensionsv1.CustomResourceDefinitionNames{
		Plural: plural, Singular: singular, Kind: kind, ListKind: listKind, ShortNames: shortNames,
	}
}

func acceptedCondition() apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue,
		Reason: "NoConflicts", Message: "no conflicts found",
	}
}

func nameConflictCondition(reason, message string) apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionFalse,
		Reason: reason, Message: message,
	}
}

func establishedCondition() apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue,
		Reason: "InitialNamesAccepted", Message: "the initial names have been accepted",
	}
}

func notEstablishedCondition() apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionFalse,
		Reason: "NotAccepted", Message: "not all names are accepted",
	}
}

func installingCondition() apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionFalse,
		Reason: "Installing", Message: "the initial names have been accepted",
	}
}

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// newController returns a controller over a fake informer holding crds
// and a fake client holding the same, on a fake clock.
func newController(t *testing.T, crds ...*apiextensionsv1.CustomResourceDefinition) (*NamingConditionController, *controllertest.Informer, *controllertest.Client) {
	t.Helper()
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	for _, crd := range crds {
		_ = inf.GetIndexer().Add(client.Put(crd))
	}
	c, err := NewNamingConditionController(inf, client, controller.Options{Clock: clock.NewFakeClock(t0)})
	require.NoError(t, err)
	t.Cleanup(c.queue.ShutDown)
	return c, inf, client
}

// TestCalculateNamesAndConditions is upstream's TestSync table: which
// names a CRD gets given the names its group already handed out.
func TestCalculateNamesAndConditions(t *testing.T) {
	tests := []struct {
		name                          string
		in                            *apiextensionsv1.CustomResourceDefinition
		existing                      []*apiextensionsv1.CustomResourceDefinition
		expectedNames                 apiextensionsv1.CustomResourceDefinitionNames
		expectedNameConflictCondition apiextensionsv1.CustomResourceDefinitionCondition
		expectedEstablishedCondition  apiextensionsv1.CustomResourceDefinitionCondition
	}{
		{
			name:                          "first resource",
			in:                            newCRD("alfa.bravo.com").New(),
			expectedNames:                 names("alfa", "", "", ""),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  installingCondition(),
		},
		{
			name: "different groups",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("alfa.charlie.com").StatusNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			},
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  installingCondition(),
		},
		{
			name: "conflict plural to singular",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "alfa", "", "").New(),
			},
			expectedNames:                 names("", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("PluralConflict", `"alfa" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "conflict singular to shortName",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "indias", "", "", "delta-singular").New(),
			},
			expectedNames:                 names("alfa", "", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("SingularConflict", `"delta-singular" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "conflict on shortName to shortName",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "indias", "", "", "hotel-shortname-2").New(),
			},
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "foxtrot-listkind"),
			expectedNameConflictCondition: nameConflictCondition("ShortNamesConflict", `"hotel-shortname-2" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "conflict on two shortNames",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "indias", "", "", "golf-shortname-1", "hotel-shortname-2").New(),
			},
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "foxtrot-listkind"),
			expectedNameConflictCondition: nameConflictCondition("ShortNamesConflict", `["golf-shortname-1" is already in use, "hotel-shortname-2" is already in use]`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "conflict on kind to listkind",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "indias", "", "echo-kind").New(),
			},
			expectedNames:                 names("alfa", "delta-singular", "", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("KindConflict", `"echo-kind" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "conflict on listkind to kind",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "indias", "foxtrot-listkind", "").New(),
			},
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("ListKindConflict", `"foxtrot-listkind" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "no conflict between resource and kind namespaces",
			in:   newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "echo-kind", "", "").New(),
			},
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  installingCondition(),
		},
		{
			name: "merge on conflicts",
			in: newCRD("alfa.bravo.com").
				SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").
				StatusNames("zulu", "yankee-singular", "xray-kind", "victor-listkind", "whiskey-shortname-1", "tango-shortname-2").
				New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "indias", "", "", "delta-singular", "golf-shortname-1").New(),
			},
			// Plural, kind and list kind move on; singular and short
			// names keep what was accepted; the last conflict names the
			// reason.
			expectedNames:                 names("alfa", "yankee-singular", "echo-kind", "foxtrot-listkind", "whiskey-shortname-1", "tango-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("ShortNamesConflict", `"golf-shortname-1" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
		{
			name: "no conflicts on self",
			in: newCRD("alfa.bravo.com").
				SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").
				StatusNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").
				New(),
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  installingCondition(),
		},
		{
			name: "no conflicts on self, remove shortname",
			in: newCRD("alfa.bravo.com").
				SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1").
				StatusNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").
				New(),
			expectedNames:                 names("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1"),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  installingCondition(),
		},
		{
			name:                          "established before with true condition",
			in:                            newCRD("alfa.bravo.com").Condition(establishedCondition()).New(),
			expectedNames:                 names("alfa", "", "", ""),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  establishedCondition(),
		},
		{
			name:                          "not established before with false condition",
			in:                            newCRD("alfa.bravo.com").Condition(notEstablishedCondition()).New(),
			expectedNames:                 names("alfa", "", "", ""),
			expectedNameConflictCondition: acceptedCondition(),
			expectedEstablishedCondition:  installingCondition(),
		},
		{
			name: "conflicting, established before with true condition",
			in: newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").
				Condition(establishedCondition()).New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "alfa", "", "").New(),
			},
			expectedNames:                 names("", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("PluralConflict", `"alfa" is already in use`),
			expectedEstablishedCondition:  establishedCondition(),
		},
		{
			name: "conflicting, not established before with false condition",
			in: newCRD("alfa.bravo.com").SpecNames("alfa", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2").
				Condition(notEstablishedCondition()).New(),
			existing: []*apiextensionsv1.CustomResourceDefinition{
				newCRD("india.bravo.com").StatusNames("india", "alfa", "", "").New(),
			},
			expectedNames:                 names("", "delta-singular", "echo-kind", "foxtrot-listkind", "golf-shortname-1", "hotel-shortname-2"),
			expectedNameConflictCondition: nameConflictCondition("PluralConflict", `"alfa" is already in use`),
			expectedEstablishedCondition:  notEstablishedCondition(),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _, _ := newController(t, append(tc.existing, tc.in)...)
			allResources, allKinds, err := c.getAcceptedNamesForGroup(tc.in.Spec.Group)
			require.NoError(t, err)
			gotNames, gotNaming, gotEstablished := calculateNamesAndConditions(tc.in, allResources, allKinds)
			assert.True(t, namesEqual(tc.expectedNames, gotNames), "names: want %+v, got %+v", tc.expectedNames, gotNames)
			assert.Equal(t, tc.expectedNameConflictCondition, gotNaming)
			assert.Equal(t, tc.expectedEstablishedCondition, gotEstablished)
		})
	}
}

func TestEqualToAcceptedOrFresh(t *testing.T) {
	used := map[string]bool{"taken": true}
	assert.NoError(t, equalToAcceptedOrFresh("fresh", "", used))
	assert.NoError(t, equalToAcceptedOrFresh("taken", "taken", used), "a name the CRD holds is its own")
	assert.EqualError(t, equalToAcceptedOrFresh("taken", "", used), `"taken" is already in use`)
}

func TestNamingConditionController_sync(t *testing.T) {
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		in := newCRD("crontabs.stable.example.com").SpecNames("crontabs", "crontab", "CronTab", "CronTabList", "ct").New()
		other := newCRD("widgets.stable.example.com").StatusNames("widgets", "widget", "Widget", "WidgetList").New()
		c, _, client := newController(t, in, other)

		require.NoError(t, c.sync(ctx, in.Name))

		got := client.Get(in.Name)
		assert.Equal(t, in.Spec.Names, got.Status.AcceptedNames)
		naming := helpers.FindCRDCondition(got, apiextensionsv1.NamesAccepted)
		require.NotNil(t, naming)
		assert.Equal(t, apiextensionsv1.ConditionTrue, naming.Status)
		assert.Equal(t, "NoConflicts", naming.Reason)
		assert.Equal(t, metav1.NewTime(t0), naming.LastTransitionTime, "conditions take the injected fakeClock")
		established := helpers.FindCRDCondition(got, apiextensionsv1.Established)
		require.NotNil(t, established)
		assert.Equal(t, apiextensionsv1.ConditionFalse, established.Status)
		assert.Equal(t, "Installing", established.Reason)
		// The group's other CRDs are queued again: a name may have moved.
		assert.Equal(t, 1, c.queue.Len())
	})

	t.Run("RequeuesOnlyUnsettledOfGroup", func(t *testing.T) {
		// After a write, the other CRDs of the group whose names are not
		// settled are queued again; those whose names are settled (their
		// sync would return at once) and other groups' are not.
		in := newCRD("crontabs.stable.example.com").SpecNames("crontabs", "crontab", "CronTab", "CronTabList").New()
		settled := newCRD("widgets.stable.example.com").SpecNames("widgets", "widget", "Widget", "WidgetList").
			StatusNames("widgets", "widget", "Widget", "WidgetList").New()
		waiting := newCRD("gadgets.stable.example.com").SpecNames("gadgets", "gadget", "Gadget", "GadgetList").New()
		otherGroup := newCRD("crontabs.other.example.com").SpecNames("crontabs", "crontab", "CronTab", "CronTabList").New()
		c, _, _ := newController(t, in, settled, waiting, otherGroup)

		require.NoError(t, c.sync(ctx, in.Name))
		require.Equal(t, 1, c.queue.Len())
		key, _ := c.queue.Get()
		assert.Equal(t, waiting.Name, key)
		c.queue.Done(key)
	})

	t.Run("NamesSettled", func(t *testing.T) {
		in := newCRD("crontabs.stable.example.com").SpecNames("crontabs", "crontab", "CronTab", "CronTabList").
			StatusNames("crontabs", "crontab", "CronTab", "CronTabList").New()
		c, _, client := newController(t, in)
		require.NoError(t, c.sync(ctx, in.Name))
		assert.Empty(t, client.Updates())
	})

	t.Run("NothingChanged", func(t *testing.T) {
		// Still in conflict, with the condition already saying so: no
		// write.
		in := newCRD("alfa.bravo.com").SpecNames("alfa", "", "", "").
			Condition(nameConflictCondition("PluralConflict", `"alfa" is already in use`)).New()
		india := newCRD("india.bravo.com").StatusNames("india", "alfa", "", "").New()
		c, _, client := newController(t, in, india)
		require.NoError(t, c.sync(ctx, in.Name))
		assert.Empty(t, client.Updates())
	})

	t.Run("PluralConflict", func(t *testing.T) {
		crontabs := newCRD("crontabs.stable.example.com").SpecNames("crontabs", "crontab", "CronTab", "CronTabList", "ct").
			StatusNames("crontabs", "crontab", "CronTab", "CronTabList", "ct").New()
		ct := newCRD("ct.stable.example.com").SpecNames("ct", "ctsingular", "CT", "CTList").New()
		c, _, client := newController(t, crontabs, ct)

		require.NoError(t, c.sync(ctx, ct.Name))

		got := client.Get(ct.Name)
		naming := helpers.FindCRDCondition(got, apiextensionsv1.NamesAccepted)
		require.NotNil(t, naming)
		assert.Equal(t, apiextensionsv1.ConditionFalse, naming.Status)
		assert.Equal(t, "PluralConflict", naming.Reason)
		assert.Equal(t, `"ct" is already in use`, naming.Message)
		assert.Empty(t, got.Status.AcceptedNames.Plural)
		assert.True(t, helpers.IsCRDConditionFalse(got, apiextensionsv1.Established))
		assert.Equal(t, "NotAccepted", helpers.FindCRDCondition(got, apiextensionsv1.Established).Reason)
	})

	t.Run("ConflictOnWrite", func(t *testing.T) {
		in := newCRD("crontabs.stable.example.com").New()
		c, _, client := newController(t, in)
		client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error {
			return apierrors.NewConflict(apiextensionsv1.Resource("customresourcedefinitions"), in.Name, errors.New("stale"))
		}
		// The newer CRD is on its way through the informer: not an error.
		require.NoError(t, c.sync(ctx, in.Name))
		assert.Equal(t, 0, c.queue.Len())
	})

	t.Run("ErrWrite", func(t *testing.T) {
		in := newCRD("crontabs.stable.example.com").New()
		c, _, client := newController(t, in)
		client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error { return errors.New("connection refused") }
		require.EqualError(t, c.sync(ctx, in.Name), "connection refused")
	})

	t.Run("DeletedRequeuesGroup", func(t *testing.T) {
		a := newCRD("alfa.bravo.com").New()
		other := newCRD("alfa.charlie.com").New()
		c, _, _ := newController(t, a, other)
		// india.bravo.com is gone from the cache: its names are free.
		require.NoError(t, c.sync(ctx, "india.bravo.com"))
		assert.Equal(t, 1, c.queue.Len())
		key, _ := c.queue.Get()
		assert.Equal(t, "alfa.bravo.com", key)
		c.queue.Done(key)
	})

	t.Run("ReadYourWrites", func(t *testing.T) {
		// One worker syncs two CRDs of a group back to back, before the
		// informer has delivered the first write. The second must still
		// see the short name the first just took.
		crontabs := newCRD("crontabs.stable.example.com").SpecNames("crontabs", "crontab", "CronTab", "CronTabList", "ct").New()
		ct := newCRD("ct.stable.example.com").SpecNames("ct", "ctsingular", "CT", "CTList").New()
		c, _, client := newController(t, crontabs, ct)

		require.NoError(t, c.sync(ctx, crontabs.Name))
		require.NoError(t, c.sync(ctx, ct.Name))

		assert.True(t, helpers.IsCRDConditionTrue(client.Get(crontabs.Name), apiextensionsv1.NamesAccepted))
		got := client.Get(ct.Name)
		assert.Equal(t, "PluralConflict", helpers.FindCRDCondition(got, apiextensionsv1.NamesAccepted).Reason)
	})
}

func TestMutationCache(t *testing.T) {
	m := newMutationCache()
	cached := newCRD("a.g").New()
	cached.ResourceVersion = "10"
	cached.Status.AcceptedNames.Plural = "old"
	written := cached.DeepCopy()
	written.ResourceVersion = "11"
	written.Status.AcceptedNames.Plural = "new"

	t.Run("NewerWins", func(t *testing.T) {
		m.mutation(written)
		assert.Equal(t, "new", m.acceptedNames(cached).Plural)
	})
	t.Run("CaughtUpDrops", func(t *testing.T) {
		caughtUp := written.DeepCopy()
		caughtUp.Status.AcceptedNames.Plural = "caught-up"
		assert.Equal(t, "caught-up", m.acceptedNames(caughtUp).Plural)
		assert.Equal(t, "old", m.acceptedNames(cached).Plural, "entry dropped once the cache caught up")
	})
	t.Run("OtherUIDIgnored", func(t *testing.T) {
		m.mutation(written)
		recreated := cached.DeepCopy()
		recreated.UID = "other"
		assert.Equal(t, "old", m.acceptedNames(recreated).Plural)
	})
	t.Run("Forget", func(t *testing.T) {
		m.mutation(written)
		m.forget(written.Name)
		assert.Equal(t, "old", m.acceptedNames(cached).Plural)
	})
	t.Run("KeepsNoSchema", func(t *testing.T) {
		big := written.DeepCopy()
		big.ResourceVersion = "12"
		big.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Schema: &apiextensionsv1.CustomResourceValidation{
			OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", Description: strings.Repeat("x", 1<<20)}}}}
		m.mutation(big)
		big.Status.AcceptedNames.Plural = "changed after the write"
		assert.Equal(t, "new", m.acceptedNames(cached).Plural, "the names are copied, not shared with the written object")
		assert.Equal(t, written.Status.AcceptedNames, m.byName[written.Name].names)
	})
}

func TestNamingConditionController_processNextWorkItem(t *testing.T) {
	ctx := context.Background()
	c, _, _ := newController(t)
	fail := true
	var synced []string
	c.syncFn = func(_ context.Context, key string) error {
		synced = append(synced, key)
		if fail {
			return errors.New("boom")
		}
		return nil
	}

	t.Run("ErrRequeuedWithBackoff", func(t *testing.T) {
		c.queue.Add("a.g")
		require.True(t, c.processNextWorkItem(ctx))
		assert.Equal(t, 1, c.queue.NumRequeues("a.g"))
	})
	t.Run("OKForgets", func(t *testing.T) {
		fail = false
		c.queue.Add("a.g")
		require.True(t, c.processNextWorkItem(ctx))
		assert.Equal(t, 0, c.queue.NumRequeues("a.g"))
	})
	t.Run("ShutDown", func(t *testing.T) {
		c.queue.ShutDown()
		assert.False(t, c.processNextWorkItem(ctx))
	})
	assert.Equal(t, []string{"a.g", "a.g"}, synced)
}

func TestNamingConditionController_eventHandlers(t *testing.T) {
	c, inf, _ := newController(t)
	crd := newCRD("alfa.bravo.com").New()
	inf.Add(crd)
	inf.Update(crd)
	assert.Equal(t, 1, c.queue.Len(), "add and update of one CRD coalesce")
	key, _ := c.queue.Get()
	c.queue.Done(key)
	inf.Delete(crd)
	assert.Equal(t, 1, c.queue.Len())
}

func TestNamingConditionController_Run(t *testing.T) {
	crd := newCRD("alfa.bravo.com").New()
	c, _, client := newController(t, crd)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 3); close(done) }()
	c.queue.Add(crd.Name)
	require.Eventually(t, func() bool { return len(client.Updates()) == 1 }, 5*time.Second, time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after ctx ended")
	}
}

// TestNamingConditionController_WorkersHoldNamesInFlight runs two workers
// on two CRDs of one group that want the same kind. The first status
// write is held until the second arrives, so the two syncs overlap: the
// second decision must see the name the first write is taking (inFlight)
// and be turned away, and be queued again once the first write is
// answered. With the decisions unguarded, both CRDs are given the kind.
func TestNamingConditionController_WorkersHoldNamesInFlight(t *testing.T) {
	a := newCRD("widgets.g.example.com").SpecNames("widgets", "widget", "Widget", "WidgetList").New()
	b := newCRD("gizmos.g.example.com").SpecNames("gizmos", "gizmo", "Widget", "GizmoList").New()
	c, _, client := newController(t, a, b)

	var calls atomic.Int32
	second := make(chan struct{})
	overlapped := make(chan bool, 1)
	client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error {
		switch calls.Add(1) {
		case 1:
			select {
			case <-second:
				overlapped <- true
			case <-time.After(10 * time.Second):
				overlapped <- false
			}
		case 2:
			close(second)
		}
		return nil
	}

	runWorkers(t, c, 2, a.Name, b.Name)

	require.True(t, <-overlapped, "the second status write did not arrive while the first was on its way")
	var winner, loser string
	require.Eventually(t, func() bool {
		ga, gb := client.Get(a.Name), client.Get(b.Name)
		switch {
		case ga.Status.AcceptedNames.Kind == "Widget" && conflicted(gb):
			winner, loser = a.Name, b.Name
		case gb.Status.AcceptedNames.Kind == "Widget" && conflicted(ga):
			winner, loser = b.Name, a.Name
		default:
			return false
		}
		return true
	}, 5*time.Second, time.Millisecond)
	for _, u := range client.Updates() {
		if u.Name == loser {
			assert.NotEqual(t, "Widget", u.Status.AcceptedNames.Kind, "%s was given %s's kind", loser, winner)
		}
	}
	// The loser was queued again when the winner's write was answered
	// (its sync then finds the kind taken, and writes nothing new).
	require.Eventually(t, func() bool {
		c.decideMu.Lock()
		defer c.decideMu.Unlock()
		return c.queue.Len() == 0 && len(c.inFlight) == 0
	}, 5*time.Second, time.Millisecond)
}

// TestNamingConditionController_FailedWriteKeepsOldNames renames a CRD's
// kind while another CRD of the group wants the old one. The rename's
// write fails (409): the old kind stays the renamed CRD's in storage, so
// the other CRD, synced while the write was on its way and again after,
// never gets it.
func TestNamingConditionController_FailedWriteKeepsOldNames(t *testing.T) {
	a := newCRD("widgets.g.example.com").SpecNames("widgets", "widget", "Gadget", "WidgetList").
		StatusNames("widgets", "widget", "Widget", "WidgetList").Condition(acceptedCondition()).New()
	b := newCRD("gizmos.g.example.com").SpecNames("gizmos", "gizmo", "Widget", "GizmoList").New()
	c, _, client := newController(t, a, b)

	var calls atomic.Int32
	second := make(chan struct{})
	client.UpdateStatusHook = func(crd *apiextensionsv1.CustomResourceDefinition) error {
		n := calls.Add(1)
		if crd.Name != a.Name {
			if n <= 2 {
				close(second)
			}
			return nil
		}
		if n == 1 {
			select {
			case <-second:
			case <-time.After(10 * time.Second):
			}
		}
		return apierrors.NewConflict(apiextensionsv1.Resource("customresourcedefinitions"), crd.Name, errors.New("changed meanwhile"))
	}

	runWorkers(t, c, 2, a.Name, b.Name)

	require.Eventually(t, func() bool { return conflicted(client.Get(b.Name)) }, 5*time.Second, time.Millisecond)
	require.Eventually(t, func() bool { return c.queue.Len() == 0 && len(client.Updates()) > 0 }, 5*time.Second, time.Millisecond)
	for _, u := range client.Updates() {
		assert.NotEqual(t, "Widget", u.Status.AcceptedNames.Kind, "%s was given a kind %s still holds", u.Name, a.Name)
	}
	assert.Equal(t, "Widget", client.Get(a.Name).Status.AcceptedNames.Kind)
}

// runWorkers runs c with workers workers until the test ends, and queues
// keys.
func runWorkers(t *testing.T, c *NamingConditionController, workers int, keys ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, workers); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	for _, k := range keys {
		c.queue.Add(k)
	}
}

// conflicted reports whether crd's NamesAccepted is False for its kind.
func conflicted(crd *apiextensionsv1.CustomResourceDefinition) bool {
	cond := helpers.FindCRDCondition(crd, apiextensionsv1.NamesAccepted)
	return cond != nil && cond.Status == apiextensionsv1.ConditionFalse && cond.Reason == "KindConflict"
}
