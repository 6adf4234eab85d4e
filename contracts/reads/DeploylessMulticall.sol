// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Deployless multicall, run as the init code of an `eth_call` without `to`.
/// @notice The constructor makes each static call and returns `abi.encode(bool[] ok, bytes[] results)` instead of
/// code: many reads at one block for one `eth_call` at the node. Nothing is deployed.
/// @dev Each call gets at most `gasPerCall`, so that one target that burns gas fails alone (as a revert) and a batch
/// stays within the gas a node grants an `eth_call`.
contract DeploylessMulticall {
    constructor(address[] memory targets, bytes[] memory calls, uint256 gasPerCall) {
        uint256 count = targets.length;
        bool[] memory ok = new bool[](count);
        bytes[] memory results = new bytes[](count);
        for (uint256 i = 0; i < count; ++i) {
            (ok[i], results[i]) = targets[i].staticcall{gas: gasPerCall}(calls[i]);
        }
        bytes memory answer = abi.encode(ok, results);
        // A constructor's return data is the deployed code: only assembly can return the answer instead.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            return(add(answer, 32), mload(answer))
        }
    }
}
