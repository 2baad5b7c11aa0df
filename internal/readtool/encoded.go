// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// encodedData is read data that comes with its JSON encoding, so the
// result is written around bytes made once instead of on every call.
type encodedData struct {
	value any
	raw   []byte
}

// MarshalJSON is the kept encoding, so the data encodes the same wherever
// it goes.
func (e encodedData) MarshalJSON() ([]byte, error) { return e.raw, nil }

// unwrapped is the read's data without a kept encoding.
func unwrapped(data any) any {
	if e, ok := data.(encodedData); ok {
		return e.value
	}
	return data
}

// encode is the read's data (without a kept encoding) and its JSON
// encoding.
func encode(data any) (any, []byte, error) {
	if e, ok := data.(encodedData); ok {
		return e.value, e.raw, nil
	}
	raw, err := json.Marshal(data)
	return data, raw, err
}

// topicEncodings keeps the encoding of each reference topic with the text
// it was made from: a reference read is the same large text (the read-tool
// topic is about 24 KB) on every call. A topic whose text changed is
// encoded again. Only names the library knows reach it, so it holds at most
// one entry per topic.
type topicEncodings struct{ m sync.Map }

type topicEncoding struct {
	text string
	raw  []byte
}

// of returns the topic as data with its encoding.
func (e *topicEncodings) of(topic *model.ReferenceTopic) (any, error) {
	if v, ok := e.m.Load(topic.Name); ok {
		if enc := v.(*topicEncoding); enc.text == topic.Text {
			return encodedData{value: topic, raw: enc.raw}, nil
		}
	}
	raw, err := json.Marshal(topic)
	if err != nil {
		return nil, err
	}
	e.m.Store(topic.Name, &topicEncoding{text: topic.Text, raw: raw})
	return encodedData{value: topic, raw: raw}, nil
}
