// Code written by hand in the shape of upstream's generated
// zz_generated.conversion.go: field-for-field copies between core/v1 and
// the hub. The rules worth reading are in conversion.go.

package v1

import (
	"encoding/json"

	"github.com/crdlab/crdlab/apis/core"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func Convert_v1_Namespace_To_core_Namespace(in *Namespace, out *core.Namespace) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Spec.Finalizers = nil
	for _, f := range in.Spec.Finalizers {
		out.Spec.Finalizers = append(out.Spec.Finalizers, core.FinalizerName(f))
	}
	out.Status.Phase = core.NamespacePhase(in.Status.Phase)
	out.Status.Conditions = nil
	for _, c := range in.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, core.NamespaceCondition{
			Type: core.NamespaceConditionType(c.Type), Status: c.Status, LastTransitionTime: c.LastTransitionTime,
			Reason: c.Reason, Message: c.Message,
		})
	}
	return nil
}

func Convert_core_Namespace_To_v1_Namespace(in *core.Namespace, out *Namespace) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Spec.Finalizers = nil
	for _, f := range in.Spec.Finalizers {
		out.Spec.Finalizers = append(out.Spec.Finalizers, FinalizerName(f))
	}
	out.Status.Phase = NamespacePhase(in.Status.Phase)
	out.Status.Conditions = nil
	for _, c := range in.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, NamespaceCondition{
			Type: NamespaceConditionType(c.Type), Status: c.Status, LastTransitionTime: c.LastTransitionTime,
			Reason: c.Reason, Message: c.Message,
		})
	}
	return nil
}

func autoConvert_v1_Secret_To_core_Secret(in *Secret, out *core.Secret) {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Immutable = deepcopy.Copy(in.Immutable)
	out.Data = deepcopy.Copy(in.Data)
	out.Type = core.SecretType(in.Type)
}

func autoConvert_core_Secret_To_v1_Secret(in *core.Secret, out *Secret) {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Immutable = deepcopy.Copy(in.Immutable)
	out.Data = deepcopy.Copy(in.Data)
	out.StringData = nil
	out.Type = SecretType(in.Type)
}

func Convert_v1_ConfigMap_To_core_ConfigMap(in *ConfigMap, out *core.ConfigMap) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Immutable = deepcopy.Copy(in.Immutable)
	out.Data = deepcopy.Copy(in.Data)
	out.BinaryData = deepcopy.Copy(in.BinaryData)
	return nil
}

func Convert_core_ConfigMap_To_v1_ConfigMap(in *core.ConfigMap, out *ConfigMap) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Immutable = deepcopy.Copy(in.Immutable)
	out.Data = deepcopy.Copy(in.Data)
	out.BinaryData = deepcopy.Copy(in.BinaryData)
	return nil
}

func Convert_v1_ObjectReference_To_core_ObjectReference(in *ObjectReference, out *core.ObjectReference) error {
	*out = core.ObjectReference(*in)
	return nil
}

func Convert_core_ObjectReference_To_v1_ObjectReference(in *core.ObjectReference, out *ObjectReference) error {
	*out = ObjectReference(*in)
	return nil
}

func Convert_v1_EventSource_To_core_EventSource(in *EventSource, out *core.EventSource) error {
	*out = core.EventSource(*in)
	return nil
}

func Convert_core_EventSource_To_v1_EventSource(in *core.EventSource, out *EventSource) error {
	*out = EventSource(*in)
	return nil
}

func Convert_v1_Event_To_core_Event(in *Event, out *core.Event) error {
	*out = core.Event{
		ObjectMeta:          deepcopy.Copy(in.ObjectMeta),
		InvolvedObject:      core.ObjectReference(in.InvolvedObject),
		Reason:              in.Reason,
		Message:             in.Message,
		Source:              core.EventSource(in.Source),
		FirstTimestamp:      in.FirstTimestamp,
		LastTimestamp:       in.LastTimestamp,
		Count:               in.Count,
		Type:                in.Type,
		EventTime:           in.EventTime,
		Action:              in.Action,
		ReportingController: in.ReportingController,
		ReportingInstance:   in.ReportingInstance,
	}
	if in.Series != nil {
		out.Series = &core.EventSeries{Count: in.Series.Count, LastObservedTime: in.Series.LastObservedTime}
	}
	if in.Related != nil {
		r := core.ObjectReference(*in.Related)
		out.Related = &r
	}
	return nil
}

func Convert_core_Event_To_v1_Event(in *core.Event, out *Event) error {
	*out = Event{
		ObjectMeta:          deepcopy.Copy(in.ObjectMeta),
		InvolvedObject:      ObjectReference(in.InvolvedObject),
		Reason:              in.Reason,
		Message:             in.Message,
		Source:              EventSource(in.Source),
		FirstTimestamp:      in.FirstTimestamp,
		LastTimestamp:       in.LastTimestamp,
		Count:               in.Count,
		Type:                in.Type,
		EventTime:           in.EventTime,
		Action:              in.Action,
		ReportingController: in.ReportingController,
		ReportingInstance:   in.ReportingInstance,
	}
	if in.Series != nil {
		out.Series = &EventSeries{Count: in.Series.Count, LastObservedTime: in.Series.LastObservedTime}
	}
	if in.Related != nil {
		r := ObjectReference(*in.Related)
		out.Related = &r
	}
	return nil
}

func Convert_v1_List_To_core_List(in *List, out *core.List) error {
	out.ListMeta = in.ListMeta
	out.Items = deepcopy.Copy(in.Items)
	return nil
}

func Convert_core_List_To_v1_List(in *core.List, out *List) error {
	out.ListMeta = in.ListMeta
	out.Items = deepcopy.Copy(in.Items)
	if out.Items == nil {
		out.Items = []json.RawMessage{}
	}
	return nil
}

// RegisterConversions adds every conversion of this package to s.
func RegisterConversions(s *scheme.Scheme) {
	scheme.AddConversion(s, Convert_v1_Namespace_To_core_Namespace)
	scheme.AddConversion(s, Convert_core_Namespace_To_v1_Namespace)
	scheme.AddConversion(s, Convert_v1_Secret_To_core_Secret)
	scheme.AddConversion(s, Convert_core_Secret_To_v1_Secret)
	scheme.AddConversion(s, Convert_v1_ConfigMap_To_core_ConfigMap)
	scheme.AddConversion(s, Convert_core_ConfigMap_To_v1_ConfigMap)
	scheme.AddConversion(s, Convert_v1_Event_To_core_Event)
	scheme.AddConversion(s, Convert_core_Event_To_v1_Event)
	scheme.AddConversion(s, Convert_v1_List_To_core_List)
	scheme.AddConversion(s, Convert_core_List_To_v1_List)
	scheme.AddConversion(s, func(in *NamespaceList, out *core.NamespaceList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_v1_Namespace_To_core_Namespace)
		return err
	})
	scheme.AddConversion(s, func(in *core.NamespaceList, out *NamespaceList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_core_Namespace_To_v1_Namespace)
		return err
	})
	scheme.AddConversion(s, func(in *SecretList, out *core.SecretList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_v1_Secret_To_core_Secret)
		return err
	})
	scheme.AddConversion(s, func(in *core.SecretList, out *SecretList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_core_Secret_To_v1_Secret)
		return err
	})
	scheme.AddConversion(s, func(in *ConfigMapList, out *core.ConfigMapList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_v1_ConfigMap_To_core_ConfigMap)
		return err
	})
	scheme.AddConversion(s, func(in *core.ConfigMapList, out *ConfigMapList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_core_ConfigMap_To_v1_ConfigMap)
		return err
	})
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
