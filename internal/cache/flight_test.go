// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func newTestFlights(t *testing.T) *Flights[string, string] {
	t.Helper()
	f, err := NewFlights[string, string]("test", 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestNewFlightsRejectsANegativeTimeout(t *testing.T) {
	t.Parallel()
	if _, err := NewFlights[string, string]("test", -1); err == nil {
		t.Fatal("no error for a negative timeout")
	}
}

func TestFlightsShareOneConcurrentLoad(t *testing.T) {
	t.Parallel()
	const callers = 20
	f := newTestFlights(t)
	var joined sync.WaitGroup
	joined.Add(callers)
	f.joined = joined.Done
	release := make(chan struct{})
	var loads atomic.Int32
	load := func(context.Context) (string, error) {
		loads.Add(1)
		<-release
		return "shared", nil
	}
	got := make(chan string, callers)
	for range callers {
		go func() {
			v, _ := f.Do(context.Background(), "k", load)
			got <- v
		}()
	}
	joined.Wait()
	if n := f.Waiting(); n != callers {
		t.Errorf("Waiting = %d, want %d", n, callers)
	}
	close(release)
	for range callers {
		if v := <-got; v != "shared" {
			t.Errorf("Do = %q, want \"shared\"", v)
		}
	}
	if n := loads.Load(); n != 1 {
		t.Fatalf("load ran %d times, want 1", n)
	}
	if n := f.Waiting(); n != 0 {
		t.Fatalf("Waiting = %d after every caller returned", n)
	}
}

func TestFlightsStoreNothing(t *testing.T) {
	t.Parallel()
	f := newTestFlights(t)
	var loads atomic.Int32
	load := func(context.Context) (string, error) {
		loads.Add(1)
		return "v", nil
	}
	for range 3 {
		if v, err := f.Do(context.Background(), "k", load); err != nil || v != "v" {
			t.Fatalf("Do = %q, %v", v, err)
		}
	}
	if n := loads.Load(); n != 3 {
		t.Fatalf("load ran %d times for 3 sequential calls, want 3", n)
	}
}

func TestFlightsOutcomes(t *testing.T) {
	t.Parallel()
	errBoom := errors.New("boom")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		load    func(context.Context) (string, error)
		want    string
		wantErr error
	}{
		{"value", context.Background(), func(context.Context) (string, error) { return "v", nil }, "v", nil},
		{"error", context.Background(), func(context.Context) (string, error) { return "x", errBoom }, "", errBoom},
		{"panic", context.Background(), func(context.Context) (string, error) { panic("bad") }, "", ErrLoadPanicked},
		{"caller already gone", canceled, func(context.Context) (string, error) {
			t.Error("load ran for a caller that had gone")
			return "", nil
		}, "", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := newTestFlights(t).Do(tt.ctx, "k", tt.load)
			if v != tt.want || !errors.Is(err, tt.wantErr) {
				t.Fatalf("Do = %q, %v; want %q, %v", v, err, tt.want, tt.wantErr)
			}
		})
	}
}
