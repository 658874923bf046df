// The provlog client: starts `provlog lsp` over stdio for .facts files, and opens the text of a
// "why" code lens (the proof, as `provlog why` prints it) in a new editor beside the fact.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const cfg = vscode.workspace.getConfiguration("provlog");
  const [command, ...args] = cfg.get("command");
  const world = cfg.get("world");
  client = new LanguageClient("provlog", "provlog", { command, args }, {
    documentSelector: [{ scheme: "file", language: "provlog" }],
    initializationOptions: world ? { world } : {},
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.facts") },
    middleware: {
      // a lens's command runs on the server, which answers with the proof's text: show it
      executeCommand: async (cmd, cmdArgs, next) => {
        const text = await next(cmd, cmdArgs);
        if (cmd === "provlog.why" && typeof text === "string") {
          const doc = await vscode.workspace.openTextDocument({ content: text, language: "plaintext" });
          await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
        }
        return text;
      },
    },
  });
  context.subscriptions.push(vscode.commands.registerCommand("provlog.showWhy", (org, dims) =>
    client.sendRequest("workspace/executeCommand", { command: "provlog.why", arguments: [org, dims] })));
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
