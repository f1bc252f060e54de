package apps

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// The types in this file stand in for the few pieces of the core API group
// (k8s.io/api/core/v1) and of apimachinery (metav1.LabelSelector,
// intstr.IntOrString) that a Deployment is made of. They carry JSON tags and
// are shared by the internal and external versions, as upstream's
// metav1.LabelSelector is shared by every version of every group.

// LabelSelector selects objects by their labels.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one expression of a selector: key In
// (values), NotIn, Exists or DoesNotExist.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// IntOrString holds an int32 or a string ("25%").
//
// Mirrors k8s.io/apimachinery/pkg/util/intstr.IntOrString.
type IntOrString struct {
	Type   IntOrStringType
	IntVal int32
	StrVal string
}

// IntOrStringType says which field of an IntOrString is set.
type IntOrStringType int64

const (
	Int    IntOrStringType = iota // IntVal is set
	String                        // StrVal is set
)

// FromString returns an IntOrString holding s.
func FromString(s string) IntOrString { return IntOrString{Type: String, StrVal: s} }

// String returns the value as a string.
func (v IntOrString) String() string {
	if v.Type == String {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON writes a number or a string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Type == String {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON reads a number or a string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Type = String
		v.IntVal = 0
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Type = Int
	v.StrVal = ""
	if err := json.Unmarshal(b, &v.IntVal); err != nil {
		return fmt.Errorf("IntOrString: %s is neither an int32 nor a string", strings.TrimSpace(string(b)))
	}
	return nil
}

// PodTemplateSpec is the pod a Deployment makes replicas of.
//
// Mirrors k8s.io/api/core/v1.PodTemplateSpec (a subset of PodSpec).
type PodTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PodSpec `json:"spec,omitempty"`
}

// PodSpec is the part of a pod's spec crdlab models.
type PodSpec struct {
	Containers                    []Container         `json:"containers"`
	RestartPolicy                 string              `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64              `json:"terminationGracePeriodSeconds,omitempty"`
	DNSPolicy                     string              `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string   `json:"nodeSelector,omitempty"`
	ServiceAccountName            string              `json:"serviceAccountName,omitempty"`
	SecurityContext               *PodSecurityContext `json:"securityContext,omitempty"`
	SchedulerName                 string              `json:"schedulerName,omitempty"`
}

// PodSecurityContext is kept as a marker: none of its fields are modelled.
type PodSecurityContext struct{}

// Container is one container of a pod (a subset).
type Container struct {
	Name                     string               `json:"name"`
	Image                    string               `json:"image,omitempty"`
	Command                  []string             `json:"command,omitempty"`
	Args                     []string             `json:"args,omitempty"`
	WorkingDir               string               `json:"workingDir,omitempty"`
	Ports                    []ContainerPort      `json:"ports,omitempty"`
	Env                      []EnvVar             `json:"env,omitempty"`
	Resources                ResourceRequirements `json:"resources"`
	TerminationMessagePath   string               `json:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy string               `json:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          string               `json:"imagePullPolicy,omitempty"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	Name          string `json:"name,omitempty"`
	HostPort      int32  `json:"hostPort,omitempty"`
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
	HostIP        string `json:"hostIP,omitempty"`
}

// EnvVar is one environment variable with a literal value.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

// ResourceRequirements are compute limits and requests ("cpu": "500m"),
// kept as strings.
type ResourceRequirements struct {
	Limits   map[string]string `json:"limits,omitempty"`
	Requests map[string]string `json:"requests,omitempty"`
}

// SetDefaults_PodTemplateSpec applies the core/v1 defaults of a pod
// template, which every Deployment version applies to its template.
//
// Mirrors SetDefaults_PodSpec, SetDefaults_Container and
// SetDefaults_ContainerPort in k8s.io/kubernetes/pkg/apis/core/v1/defaults.go.
func SetDefaults_PodTemplateSpec(t *PodTemplateSpec) {
	s := &t.Spec
	if s.DNSPolicy == "" {
		s.DNSPolicy = "ClusterFirst"
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = "Always"
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		period := int64(30)
		s.TerminationGracePeriodSeconds = &period
	}
	if s.SchedulerName == "" {
		s.SchedulerName = "default-scheduler"
	}
	for i := range s.Containers {
		c := &s.Containers[i]
		if c.ImagePullPolicy == "" {
			// an image without a tag, or tagged latest, is pulled every time
			_, tag := splitImageTag(c.Image)
			if tag == "" || tag == "latest" {
				c.ImagePullPolicy = "Always"
			} else {
				c.ImagePullPolicy = "IfNotPresent"
			}
		}
		if c.TerminationMessagePath == "" {
			c.TerminationMessagePath = "/dev/termination-log"
		}
		if c.TerminationMessagePolicy == "" {
			c.TerminationMessagePolicy = "File"
		}
		for j := range c.Ports {
			if c.Ports[j].Protocol == "" {
				c.Ports[j].Protocol = "TCP"
			}
		}
	}
}

// splitImageTag splits "repo:tag" (ignoring a registry port and a digest).
func splitImageTag(image string) (repo, tag string) {
	if i := strings.Index(image, "@"); i >= 0 {
		return image[:i], "digest"
	}
	slash := strings.LastIndex(image, "/")
	colon := strings.LastIndex(image, ":")
	if colon > slash {
		return image[:colon], image[colon+1:]
	}
	return image, ""
}
