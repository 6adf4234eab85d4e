// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title The external ABI of MCH+'s ERC721Converter, as its integrations and scripts call it.
/// @dev Written from the predecessor's function signatures (the converter and its operator role), argument order
/// included: the Bob-side functions take the Bob id first. Tests call NFTConverter through this interface to prove
/// that those callers need no change. Left out on purpose: `updateAlice`/`updateBob` (Alice and Bob are immutable),
/// `transferOwnership`/`renounceOwnership` (the admin moves in two steps with a delay) and `withdrawEther` (the
/// converter accepts no ether).
interface IPredecessorERC721Converter {
    event OperatorAdded(address indexed account);
    event OperatorRemoved(address indexed account);
    event Paused(address account);
    event Unpaused(address account);

    function aliceContract() external view returns (address);
    function bobContract() external view returns (address);

    function draftAliceTokens(uint256[] calldata aliceTokenIds, uint256[] calldata bobTokenIds) external;
    function draftBobTokens(uint256[] calldata bobTokenIds, uint256[] calldata aliceTokenIds) external;
    function draftAliceToken(uint256 aliceTokenId, uint256 bobTokenId) external;
    function draftBobToken(uint256 bobTokenId, uint256 aliceTokenId) external;

    function getBobTokenID(uint256 aliceTokenId) external view returns (uint256);
    function getAliceTokenID(uint256 bobTokenId) external view returns (uint256);

    function convertFromAliceToBob(uint256 tokenId) external;
    function convertFromBobToAlice(uint256 tokenId) external;

    function isOperator(address account) external view returns (bool);
    function addOperator(address account) external;
    function removeOperator(address account) external;

    function owner() external view returns (address);
    function paused() external view returns (bool);
    function pause() external;
    function unpause() external;

    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}
