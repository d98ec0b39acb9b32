// Package deps pins module dependencies until the packages that use them land.
package deps

import (
	_ "github.com/chromedp/chromedp"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/spf13/cobra"
	_ "github.com/vbauerster/mpb/v8"
	_ "golang.org/x/sync/errgroup"
	_ "golang.org/x/term"
)
