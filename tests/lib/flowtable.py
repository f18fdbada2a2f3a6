# SPDX-License-Identifier: GPL-2.0
"""The nft ruleset of a router whose flows go to the hardware: a
flowtable with `flags offload` on the switch ports (what OpenWrt's
"hardware flow offloading" sets up), and IPv4 masqueraded out of the WAN.
One home for the ppe suite's and the bench's."""


def ruleset(table, devices, l4, masquerade):
    """nft's text of table inet @table: a flowtable on @devices with
    `flags offload` taking the forwarded flows of the protocols @l4 (e.g.
    ('tcp', 'udp')), IPv4 masqueraded out of the interfaces @masquerade."""
    return '''table inet %s {
    flowtable ft {
        hook ingress priority 0
        devices = { %s }
        flags offload
    }
    chain forward {
        type filter hook forward priority 0; policy accept;
        meta l4proto { %s } flow add @ft
    }
    chain postrouting {
        type nat hook postrouting priority 100; policy accept;
        oifname { %s } meta nfproto ipv4 masquerade
    }
}
''' % (table, ', '.join(devices), ', '.join(l4),
       ', '.join('"%s"' % d for d in masquerade))
