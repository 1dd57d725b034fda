/// The console's one stylesheet (served at ``ConsolePaths/stylesheet``): system fonts, colours with at least
/// 4.5:1 contrast, visible keyboard focus, and tables that scroll on narrow screens.
public enum ConsoleStylesheet {
    public static let css = """
        :root{--ink:#1f2328;--muted:#57606a;--line:#d0d7de;--accent:#0b57d0;--danger:#b3261e;--ok:#146c2e;--bg:#f6f8fa}
        *{box-sizing:border-box}
        body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg)}
        a{color:var(--accent)}
        :focus-visible{outline:3px solid #f9a825;outline-offset:2px}
        .skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.4rem;z-index:1}
        header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.6rem 1.5rem;background:#fff;border-bottom:1px solid var(--line)}
        .brand{font-weight:600;color:var(--ink);text-decoration:none}
        nav ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;margin:0;padding:0}
        nav a{text-decoration:none;padding:.2rem 0}nav a[aria-current=page]{font-weight:600;border-bottom:2px solid var(--accent)}
        .who{margin:0 0 0 auto;display:flex;gap:.6rem;align-items:center;color:var(--muted)}
        main{max-width:72rem;margin:1.5rem auto;padding:0 1.5rem}main.narrow{max-width:34rem}
        h1{font-size:1.5rem;font-weight:500;margin:.2rem 0 1rem}h2{font-size:1.15rem;font-weight:500;margin:1.6rem 0 .6rem}
        section,.panel{background:#fff;border:1px solid var(--line);border-radius:6px;padding:1rem 1.2rem;margin-bottom:1rem}
        section>h2:first-child{margin-top:0}
        .table{overflow-x:auto}.table table{min-width:44rem}
        table{border-collapse:collapse;width:100%;background:#fff}
        th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
        td.kind,td.time{white-space:nowrap}
        th{font-weight:600;font-size:.9rem;color:var(--muted);overflow-wrap:normal;white-space:nowrap}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
        form.inline{display:inline}
        .check{display:flex;gap:.5rem;align-items:baseline;margin:.4rem 0}.check label{margin:0}
        .lock{color:var(--muted);font-size:.9rem;margin:.1rem 0 .6rem}
        .search{display:flex;flex-wrap:wrap;gap:.6rem;align-items:flex-end;margin-bottom:1.2rem}
        label{display:block;font-weight:500;margin:.3rem 0 .2rem}
        input,select,textarea{font:inherit;padding:.4rem .5rem;border:1px solid #8c959f;border-radius:4px;background:#fff;color:var(--ink)}
        textarea{width:100%;min-height:8rem;font-family:ui-monospace,monospace}
        button,.button{font:inherit;padding:.4rem .9rem;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
        button.secondary,.button.secondary{background:#fff;color:var(--accent)}
        button.danger,.button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
        .actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:.8rem}.actions.save{margin-bottom:1rem}
        .alert{color:var(--danger);font-weight:500;border-left:4px solid var(--danger);padding:.3rem .8rem;background:#fff}
        .status{color:var(--ok);font-weight:500;border-left:4px solid var(--ok);padding:.3rem .8rem;background:#fff}
        .muted{color:var(--muted)}.badge{display:inline-block;white-space:nowrap;padding:0 .45rem;border-radius:9px;font-size:.85rem;border:1px solid currentColor}
        .badge.off{color:var(--danger)}.badge.on{color:var(--ok)}
        code,.mono{font-family:ui-monospace,monospace;font-size:.92em}
        .stats{display:flex;flex-wrap:wrap;gap:1rem;margin:0 0 1rem}.stats div{background:#fff;border:1px solid var(--line);border-radius:6px;padding:.6rem 1rem;min-width:9rem}
        .stats dt{font-size:.9rem}.stats dd{font-size:1.6rem;font-weight:500}
        figure.chart{background:#fff;border:1px solid var(--line);border-radius:6px;padding:1rem 1.2rem;margin:0 0 1rem}
        figure.chart figcaption{font-weight:500;margin-bottom:.4rem}figure.chart>svg{width:100%;height:auto;max-height:16rem}
        svg .grid{stroke:var(--line)}svg .tick{font-size:11px;fill:var(--muted)}
        .legend{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;list-style:none;margin:.4rem 0;padding:0}
        .swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:2px;margin-right:.4rem;vertical-align:-.1rem}
        .pager{display:flex;gap:1rem;margin:1rem 0}
        @media (max-width:40rem){header{padding:.6rem 1rem}main{padding:0 1rem}dl{grid-template-columns:1fr}.who{margin-left:0}}
        """
}
