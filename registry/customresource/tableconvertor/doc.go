// Package tableconvertor prints custom resources as the rows of a Table,
// the server-side printing `kubectl get` shows: a Name column, then one
// column per additionalPrinterColumn of the CRD version (or Age, when it
// has none), each cell found with the column's JSONPath.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor
//     (New, convertor.ConvertToTable, cellForJSONValue)
//
// Differences from upstream: the convertor prints objects already encoded
// for the wire (a registry.TableConvertor), not a list object
// and table options.
package tableconvertor
