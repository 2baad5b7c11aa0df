// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// sharedKeyOf derives the shared key of each cache's key struct; a nil
// function marks a cache that stays local (its entries never reach the
// shared level).
var sharedKeyOf = map[reflect.Type]func(any) sharedstate.Key{
	reflect.TypeFor[specKey]():     func(k any) sharedstate.Key { return k.(specKey).shared() },
	reflect.TypeFor[namesKey]():    func(k any) sharedstate.Key { return k.(namesKey).shared() },
	reflect.TypeFor[listKey]():     func(k any) sharedstate.Key { return k.(listKey).shared() },
	reflect.TypeFor[runCacheKey](): func(k any) sharedstate.Key { return k.(runCacheKey).shared("root state", "sub state") },
	reflect.TypeFor[hintKey]():     nil,
	reflect.TypeFor[roleKey]():     nil,
}

// TestEveryStoreIsKeyedByAKnownStruct: each store of Stores is keyed by a
// key struct (within a scope) that sharedKeyOf knows, so a new cache
// cannot skip the test below.
func TestEveryStoreIsKeyedByAKnownStruct(t *testing.T) {
	t.Parallel()
	stores := reflect.TypeFor[Stores]()
	for i := range stores.NumField() {
		f := stores.Field(i)
		peek, ok := f.Type.MethodByName("Peek") // of a *cache.Cache[scoped[K], V]
		if !ok {
			t.Fatalf("store %s: %s has no Peek", f.Name, f.Type)
		}
		local := peek.Type.In(1) // scoped[K], after the receiver
		if local.Kind() != reflect.Struct || local.NumField() != 2 || local.Field(0).Name != "scope" || local.Field(1).Name != "key" {
			t.Errorf("store %s is keyed by %s, not by scoped[K]", f.Name, local)
			continue
		}
		if _, known := sharedKeyOf[local.Field(1).Type]; !known {
			t.Errorf("store %s is keyed by %s, which sharedKeyOf does not list", f.Name, local.Field(1).Type)
		}
	}
}

// TestEveryKeyFieldReachesTheSharedKey: the local store keys an entry by
// its key struct as it is, so every field of the struct tells two local
// entries apart; the shared key must then change with every field too, or
// two entries the local store keeps apart would share one Redis entry (a
// new log-window field would serve one window for another).
func TestEveryKeyFieldReachesTheSharedKey(t *testing.T) {
	t.Parallel()
	for typ, shared := range sharedKeyOf {
		if shared == nil {
			continue
		}
		base := reflect.New(typ).Elem()
		want := shared(base.Interface())
		for _, path := range leafFields(t, typ, nil) {
			changed := reflect.New(typ).Elem()
			if err := changeField(changed, path); err != nil {
				t.Fatalf("%s.%s: %v", typ, strings.Join(path, "."), err)
			}
			if changed.Interface() == base.Interface() {
				t.Fatalf("%s.%s: changing it left the local key as it was", typ, strings.Join(path, "."))
			}
			if reflect.DeepEqual(shared(changed.Interface()), want) {
				t.Errorf("%s.%s tells local entries apart but is not part of the shared key", typ, strings.Join(path, "."))
			}
		}
	}
}

// leafFields lists the paths of the fields of a key struct that are not
// structs themselves.
func leafFields(t *testing.T, typ reflect.Type, prefix []string) [][]string {
	t.Helper()
	var out [][]string
	for i := range typ.NumField() {
		f := typ.Field(i)
		path := append(append([]string(nil), prefix...), f.Name)
		if f.Type.Kind() == reflect.Struct {
			out = append(out, leafFields(t, f.Type, path)...)
			continue
		}
		out = append(out, path)
	}
	return out
}

// changeField gives the field at path a value other than its zero value.
// Key fields are unexported, so it writes through the field's address.
func changeField(v reflect.Value, path []string) error {
	for _, name := range path {
		v = v.FieldByName(name)
	}
	v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	switch v.Kind() {
	case reflect.String:
		v.SetString("changed")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint8:
		v.SetUint(7)
	default:
		return fmt.Errorf("a %s field: teach changeField to change it", v.Kind())
	}
	return nil
}

// TestSharedKeysLeaveTheLocalScopeOut: replicas number their instances'
// local scopes each its own way, so a shared key holds only the
// credential's fingerprint and the key struct, or replicas would never
// share an entry.
func TestSharedKeysLeaveTheLocalScopeOut(t *testing.T) {
	t.Parallel()
	k := runCacheKey{run: runKey{credential: "fp", name: "etl", rootID: "r1"}, part: partDetails}
	var first sharedstate.Key
	for i, scope := range []string{"", "prod#1", "prod#7"} {
		got, ok := runStore{scope: scope}.sharedKey(k)
		if !ok || got.Fingerprint != "fp" {
			t.Errorf("scope %q: shared key %+v, %v; want fingerprint fp", scope, got, ok)
		}
		if i == 0 {
			first = got
		} else if !reflect.DeepEqual(got, first) {
			t.Errorf("scope %q: shared key %+v differs from %+v", scope, got, first)
		}
	}
}
