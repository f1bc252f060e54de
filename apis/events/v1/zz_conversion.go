// Code written by hand in the shape of upstream's generated
// zz_generated.conversion.go. The renamed fields are moved in
// conversion.go.

package v1

import (
	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// autoConvert_v1_Event_To_core_Event copies the fields with the same name
// in both versions.
func autoConvert_v1_Event_To_core_Event(in *Event, out *core.Event) {
	*out = core.Event{
		ObjectMeta:          deepcopy.Copy(in.ObjectMeta),
		EventTime:           in.EventTime,
		ReportingController: in.ReportingController,
		ReportingInstance:   in.ReportingInstance,
		Action:              in.Action,
		Reason:              in.Reason,
		Type:                in.Type,
	}
	if in.Series != nil {
		out.Series = &core.EventSeries{Count: in.Series.Count, LastObservedTime: in.Series.LastObservedTime}
	}
	if in.Related != nil {
		r := core.ObjectReference(*in.Related)
		out.Related = &r
	}
}

func autoConvert_core_Event_To_v1_Event(in *core.Event, out *Event) {
	*out = Event{
		ObjectMeta:          deepcopy.Copy(in.ObjectMeta),
		EventTime:           in.EventTime,
		ReportingController: in.ReportingController,
		ReportingInstance:   in.ReportingInstance,
		Action:              in.Action,
		Reason:              in.Reason,
		Type:                in.Type,
	}
	if in.Series != nil {
		out.Series = &EventSeries{Count: in.Series.Count, LastObservedTime: in.Series.LastObservedTime}
	}
	if in.Related != nil {
		r := corev1.ObjectReference(*in.Related)
		out.Related = &r
	}
}

// RegisterConversions adds every conversion of this package to s.
func RegisterConversions(s *scheme.Scheme) {
	scheme.AddConversion(s, Convert_v1_Event_To_core_Event)
	scheme.AddConversion(s, Convert_core_Event_To_v1_Event)
	scheme.AddConversion(s, func(in *EventList, out *core.EventList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_v1_Event_To_core_Event)
		return err
	})
	scheme.AddConversion(s, func(in *core.EventList, out *EventList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_core_Event_To_v1_Event)
		return err
	})
}

func (in *Event) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *EventList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
