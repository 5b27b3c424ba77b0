// SPDX-License-Identifier: MIT
// The sweeper of EVM collections (docs/decisions/085). A deposit address of the merchant's seed
// delegates to this code (EIP-7702) for one transaction: `sweep` then runs as that address and
// moves its token and native balances to the treasury fixed in the bytecode (an immutable, so
// each treasury has its own code, deployed once per network at a CREATE2 address the signer
// computes itself). Anyone may call it; nobody chooses where the money goes.
// Compiled by the npm `solc` (its version pinned below), with no metadata hash, into
// sweeper-bytecode.ts; lib/chains/evm/transactions/sweeper.test.ts compiles it again and compares.
pragma solidity 0.8.37;

contract Sweeper {
    /// Where every balance this code moves goes: fixed at deployment, the only payee.
    address public immutable treasury;

    constructor(address treasury_) {
        require(treasury_ != address(0), "no treasury");
        treasury = treasury_;
    }

    /// Native coin sent to a delegated address (with more than 21,000 gas) is kept for the next sweep.
    receive() external payable {}

    /// Moves this address's balance of each token, then its native balance, to the treasury.
    /// Tokens that answer no boolean (USDT on Ethereum) count as paid when the call succeeds.
    function sweep(address[] calldata tokens) external {
        for (uint256 i = 0; i < tokens.length; ++i) {
            address token = tokens[i];
            (bool read, bytes memory answer) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
            require(read && answer.length >= 32, "balanceOf failed");
            uint256 balance = abi.decode(answer, (uint256));
            if (balance == 0) continue;
            (bool sent, bytes memory result) = token.call(abi.encodeWithSelector(0xa9059cbb, treasury, balance));
            require(sent && (result.length == 0 || abi.decode(result, (bool))), "transfer failed");
        }
        uint256 native = address(this).balance;
        if (native != 0) {
            (bool paid, ) = treasury.call{value: native}("");
            require(paid, "native transfer failed");
        }
    }

    /// Sweeps each of `accounts` (addresses delegated to this code) in one transaction. One that
    /// fails (its delegation missing, a token refusing) is skipped: the others are still collected.
    function sweepMany(address[] calldata accounts, address[] calldata tokens) external {
        for (uint256 i = 0; i < accounts.length; ++i) {
            (bool ok, ) = accounts[i].call(abi.encodeCall(Sweeper.sweep, (tokens)));
            ok; // a skipped account keeps its balance for the next plan
        }
    }
}
